package neveracquires_test

import (
	"testing"

	neveracquires "github.com/guardlint/guardlint/analyzers/kinds/neveracquires"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
)

// TestNeverAcquires checks the rule over annotated source: silent on
// tasks that take no lock, firing on each task that does, directly or
// through calls (in another package, by facts), and on every call that
// cannot be followed.
func TestNeverAcquires(t *testing.T) {
	assert.Empty(t, ruletest.Kind(t, neveracquires.New, "testdata/never.yaml", "lanes", "handlers"))
}

// TestStaleInvariants checks that invariants whose names no longer
// resolve fail closed, at their own line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock stalenever.evalLock does not resolve from package stalenever: evalLock is not declared in package stalenever; closest: evalMu (why: w)",
		"stale.yaml:4: invariant target-renamed: cannot verify: target stalenever.tasks not found in package stalenever: tasks is not declared in package stalenever; closest: task (why: w)",
		"stale.yaml:5: invariant runner-renamed: cannot verify: passed_to stalenever.runAll not found in package stalenever: runAll is not declared in package stalenever; closest: run (why: w)",
		"stale.yaml:6: invariant not-a-mutex: cannot verify: lock stalenever.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, ruletest.Kind(t, neveracquires.New, "testdata/stale.yaml", "stalenever"))
}
