package lockorder_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/internal/ruletest"
	lockorder "github.com/guardlint/guardlint/analyzers/lock_order"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestLockOrder(t *testing.T) {
	a := lockorder.New(guardconf.New(registry.Files("testdata/order.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "store", "client")
}

// TestStaleInvariants checks that an order whose lock no longer resolves
// fails closed, at the lock's line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	a := lockorder.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "staleorder")
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock staleorder.poolLock does not resolve from package staleorder: poolLock is not declared in package staleorder; closest: poolMu (why: w)",
		"stale.yaml:4: invariant not-a-mutex: cannot verify: lock staleorder.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, got)
}
