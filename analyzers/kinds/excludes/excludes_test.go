package excludes_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/kinds/excludes"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
)

// TestExcludes checks the rule over annotated source: silent on waits
// outside the lock, firing on each revert, following callers into an
// importing package by facts.
func TestExcludes(t *testing.T) {
	assert.Empty(t, ruletest.Kind(t, excludes.New, "testdata/excludes.yaml", "gpu", "app"))
}

// TestStaleInvariants checks that invariants whose names no longer
// resolve fail closed, at their own line in the invariants file.
func TestStaleInvariants(t *testing.T) {
	assert.Equal(t, []string{
		"stale.yaml:3: invariant lock-renamed: cannot verify: lock staleexcl.evalLock does not resolve from package staleexcl: evalLock is not declared in package staleexcl; closest: evalMu (why: w)",
		"stale.yaml:4: invariant target-renamed: cannot verify: target staleexcl.waitAll not found in package staleexcl: waitAll is not declared in package staleexcl; closest: wait (why: w)",
		"stale.yaml:5: invariant not-a-mutex: cannot verify: lock staleexcl.counter has type int, not sync.Mutex or sync.RWMutex (why: w)",
	}, ruletest.Kind(t, excludes.New, "testdata/stale.yaml", "staleexcl"))
}
