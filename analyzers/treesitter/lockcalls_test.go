package treesitter_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
)

// TestLockCalls: hold over explicit lock and unlock calls in C and C++,
// balanced on every path.
func TestLockCalls(t *testing.T) {
	ruletest.Native(t, "testdata/lockcalls.yaml", "testdata/lockcalls")
}
