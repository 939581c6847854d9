package prove

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGuardedByReverts proves two guarded_by invariants: every Go revert
// of the kind is killed, except the shared mode of a plain Mutex, which
// has none.
func TestGuardedByReverts(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", filepath.Join("testdata", "guardedby"), "-config", "guardlint.yaml", "./..."}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, got, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "2 invariants, 12 mutants: 11 killed, 0 survived, 1 void")
	assert.Contains(t, stdout.String(), "other-mode: cacheMu is a sync.Mutex: it has one mode")
}
