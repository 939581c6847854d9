package prove

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGuardedByReverts proves six guarded_by invariants: every Go
// revert of the kind is killed, except the shared mode of a plain Mutex,
// which has none. Conn.seq's lock is taken only in an unexported method:
// its reverts are reported at the exported caller, naming the method, and
// that is their kill. The last three are the placement of locked-late and
// unlocked-early by the field: Pool.Put touches another field of the lock
// first and last, with items in the middle, and Queue.Pop releases the
// lock and then works (placed by the function's work, those reverts
// survive there); Outbox.Send touches pending again after its release,
// under a lock taken anew (placed past the release, unlocked-early
// survives there); Reader.Read touches last only under its second lock,
// where its reverts are made (made at the first, lock-deleted and
// locked-late survive).
func TestGuardedByReverts(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", filepath.Join("testdata", "guardedby"), "-config", "guardlint.yaml", "./..."}, &stdout, &stderr, noEnv)
	out := stdout.String()
	assert.Equal(t, exitProved, got, "%s%s", out, stderr.String())
	assert.Contains(t, out, "7 invariants, 42 mutants: 36 killed, 0 survived, 6 void")
	assert.Contains(t, out, "other-mode: cacheMu is a sync.Mutex: it has one mode")
	// Rows of the verdict table: lock-deleted, out-of-scope, locked-late,
	// unlocked-early, other-mode (void for a Mutex, on the field's row),
	// into-goroutine.
	assert.Regexp(t, `pool-items +\(Pool\)\.Put +K K K K - K\n`, out)
	assert.Regexp(t, `queue-items +\(Queue\)\.Pop +K K K K - K\n`, out)
	assert.Regexp(t, `outbox-pending +\(Outbox\)\.Send +K K K K - K\n`, out)
	assert.Regexp(t, `reader-last +\(Reader\)\.Read +K K K K - K\n`, out)
}
