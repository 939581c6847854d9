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
// locked-late survive). Body.earlyFn is set only where a Body is made:
// its reads need no lock, so the reverts of a read are equivalent
// mutants, void with that reason, and out-of-scope is made as an
// unlocked write (without that, five would survive). Registry.deps is
// touched only in helpers whose callers hold mu, one of them through
// another: its reverts are made around the helpers' calls in Register
// (without that, all six are void: no function takes the lock and then
// touches the field), not in Count, whose first lock does not hold its
// helper's call (made there, lock-deleted survives). Pipe takes mu only
// through its helpers lock() and unlock(), as net/http's connReader does:
// Close releases by a deferred helper call, Begin by explicit ones; the
// reverts are made at the helper's call and move or delete the helper's
// release (without the helpers, all twelve are void: no function takes
// the lock in its outermost block). Frame.Body is touched only under locks
// taken in nested blocks, a select case in a loop (Drain) and an else
// (Pending), as yamux's sendReady.Body: the reverts are made at those
// lock statements (without them, all six are void); its into-goroutine
// is void, since the statements that touch it there are an if and a
// declaration. Node.kids is touched under the lock of an ancestor taken
// inside the block that holds the node's own lock, as unique's
// canonMap.cleanup: the reverts are made at the inner lock, which holds
// the access (made at the outer one, three survive).
func TestGuardedByReverts(t *testing.T) {
	got, out := proveGuardedBy("guardlint.yaml")
	assert.Equal(t, exitProved, got, out)
	assert.Contains(t, out, "13 invariants, 78 mutants: 60 killed, 0 survived, 18 void")
	assert.Contains(t, out, "body-early (*raft.Body).earlyFn lock-deleted: equivalent: earlyFn is written only where it is made")
	assert.Contains(t, out, "other-mode: cacheMu is a sync.Mutex: it has one mode")
	// Rows of the verdict table: lock-deleted, out-of-scope, locked-late,
	// unlocked-early, other-mode (void for a Mutex, on the field's row),
	// into-goroutine.
	assert.Regexp(t, `pool-items +\(Pool\)\.Put +K K K K - K\n`, out)
	assert.Regexp(t, `queue-items +\(Queue\)\.Pop +K K K K - K\n`, out)
	assert.Regexp(t, `outbox-pending +\(Outbox\)\.Send +K K K K - K\n`, out)
	assert.Regexp(t, `reader-last +\(Reader\)\.Read +K K K K - K\n`, out)
	assert.Regexp(t, `body-early +\(Body\)\.Close +- K - - - -\n`, out)
	assert.Regexp(t, `registry-deps +\(Registry\)\.Register +K K K K - K\n`, out)
	assert.Regexp(t, `pipe-closed +\(Pipe\)\.Close +K K K K - K\n`, out)
	assert.Regexp(t, `pipe-inread +\(Pipe\)\.Begin +K K K K - K\n`, out)
	assert.Regexp(t, `frame-body +Drain +K - K K - V\n`, out)
	assert.Regexp(t, `frame-body +Pending +- K - - - -\n`, out)
	assert.Regexp(t, `node-kids +Prune +K V K K - K\n`, out)
}

// TestGuardedByDeadCodeVacuous: ConnPool.lastPut is touched only under
// the constant false debugPut, as database/sql's DB.lastPut. No revert
// there can change what the check sees, so none is made, and the
// invariant is reported vacuous: its guard constrains nothing (made
// around the dead code, three reverts would survive).
func TestGuardedByDeadCodeVacuous(t *testing.T) {
	got, out := proveGuardedBy("guardlint-debug.yaml")
	assert.Equal(t, exitUnproved, got, out)
	assert.Contains(t, out, "vacuous   pool-lastput: no function of package example.com/guardedby/raft reads or writes (*raft.ConnPool).lastPut in code that runs")
	assert.Contains(t, out, "1 invariants, 6 mutants: 0 killed, 0 survived, 6 void")
}

// proveGuardedBy proves the invariants of config over the guarded_by
// testdata, and returns the exit code and the output, stderr last.
func proveGuardedBy(config string) (int, string) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", filepath.Join("testdata", "guardedby"), "-config", config, "./..."}, &stdout, &stderr, noEnv)
	return got, stdout.String() + stderr.String()
}
