package hold_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/hold"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestHold(t *testing.T) {
	a := hold.New(guardconf.New(registry.Files("testdata/hold.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "locks")
}

func TestStaleInvariants(t *testing.T) {
	a := hold.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "stalelocks")
	assert.Equal(t, []string{
		"stale.yaml:4: invariant lock-renamed: cannot verify: lock stalelocks.evalLock does not resolve from package stalelocks: evalLock is not declared in package stalelocks; closest: evalMu (why: w)",
		"stale.yaml:5: invariant helper-unlocks: cannot verify: helper stalelocks.lockBriefly does not acquire stalelocks.evalMu on every path (why: w)",
		"stale.yaml:6: invariant target-renamed: cannot verify: target stalelocks.Evaluate not found in package stalelocks: Evaluate is not declared in package stalelocks; closest: Eval (why: w)",
	}, got)
}
