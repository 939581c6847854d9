package lockorder_test

import (
	"testing"

	lockorder "github.com/guardlint/guardlint/analyzers/kinds/lockorder"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
)

// TestLockOrder checks the order over annotated source: silent on locks
// taken in order, firing on each reverse edge, direct or through calls,
// and in an importing package by facts.
func TestLockOrder(t *testing.T) {
	assert.Empty(t, ruletest.Kind(t, lockorder.New, "testdata/order.yaml", "store", "client"))
}

// TestStaleInvariants checks that invariants whose names no longer
// resolve fail closed, at their own line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock staleorder.poolLock does not resolve from package staleorder: poolLock is not declared in package staleorder; closest: poolMu (why: w)",
		"stale.yaml:4: invariant not-a-mutex: cannot verify: lock staleorder.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, ruletest.Kind(t, lockorder.New, "testdata/stale.yaml", "staleorder"))
}
