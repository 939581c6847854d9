package call_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestCall(t *testing.T) {
	a := call.New(guardconf.New(registry.Files("testdata/call.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "enc")
}

// TestStaleInvariants checks that invariants that no longer match the code
// fail closed, at their own line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	a := call.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "stale")
	assert.Equal(t, []string{
		"stale.yaml:11: invariant callee-renamed: cannot verify: callee (*stale.Encoder).retainOnce does not resolve from package stale: Encoder has no method or field retainOnce; closest: retain (why: w)",
		"stale.yaml:15: invariant callee-not-imported: cannot verify: callee (*sync.Mutex).Lock does not resolve from package stale: package sync is not imported by stale (why: w)",
		"stale.yaml:21: invariant helper-broken: cannot verify: helper stale.notAHelper does not call (*stale.Encoder).retain on every path (why: w)",
		"stale.yaml:24: invariant not-a-function: cannot verify: target stale.Encoder not found in package stale: stale.Encoder is not a function or method (why: w)",
		"stale.yaml:6: invariant renamed: cannot verify: target stale.getOrCreateEncoder not found in package stale: getOrCreateEncoder is not declared in package stale (why: w)",
	}, got)
}
