package excludes_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/excludes"
	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/internal/ruletest"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestExcludes(t *testing.T) {
	a := excludes.New(guardconf.New(registry.Files("testdata/excludes.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "gpu", "app")
}

// TestStaleInvariants checks that invariants that no longer match the
// code fail closed, at their own line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	a := excludes.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "staleexcl")
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock staleexcl.evalLock does not resolve from package staleexcl: evalLock is not declared in package staleexcl; closest: evalMu (why: w)",
		"stale.yaml:4: invariant target-renamed: cannot verify: target staleexcl.waitAll not found in package staleexcl: waitAll is not declared in package staleexcl; closest: wait (why: w)",
		"stale.yaml:5: invariant not-a-mutex: cannot verify: lock staleexcl.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, got)
}
