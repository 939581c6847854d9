package prove

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGuardedByReverts proves five guarded_by invariants: every Go
// revert of the kind is killed, except the shared mode of a plain Mutex,
// which has none. Conn.seq's lock is taken only in an unexported method:
// its reverts are reported at the exported caller, naming the method, and
// that is their kill. Pool.Put touches another field of the lock first and
// last, and Queue.Pop releases the lock and then works: placed by the
// function's work, locked-late and unlocked-early would survive there.
func TestGuardedByReverts(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", filepath.Join("testdata", "guardedby"), "-config", "guardlint.yaml", "./..."}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, got, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "5 invariants, 30 mutants: 26 killed, 0 survived, 4 void")
	assert.Contains(t, stdout.String(), "other-mode: cacheMu is a sync.Mutex: it has one mode")
}
