package requires_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/requires"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestRequires(t *testing.T) {
	a := requires.New(guardconf.New(registry.Files("testdata/requires.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "gpu", "app")
}

func TestStaleInvariants(t *testing.T) {
	a := requires.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "stalereq")
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock stalereq.evalLock does not resolve from package stalereq: evalLock is not declared in package stalereq; closest: evalMu (why: w)",
		"stale.yaml:4: invariant op-renamed: cannot verify: operation stalereq.encodeLocked not found in package stalereq: encodeLocked is not declared in package stalereq; closest: keepLocked (why: w)",
		"stale.yaml:5: invariant helper-unlocks: cannot verify: acquire helper stalereq.lockBriefly does not acquire stalereq.evalMu on every path (why: w)",
		"stale.yaml:5: invariant helper-unlocks: cannot verify: release helper stalereq.keepLocked does not release stalereq.evalMu on every path (why: w)",
		"stale.yaml:6: invariant not-a-mutex: cannot verify: lock stalereq.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, got)
}
