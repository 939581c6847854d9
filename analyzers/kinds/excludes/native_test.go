package excludes_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
)

// TestNative checks the rule over C++, Rust and C: silent on code that
// waits outside the lock, firing on each revert, failing closed when the
// target, the lock or the files are gone.
func TestNative(t *testing.T) { ruletest.Native(t, "testdata/native.yaml", "testdata/native") }
