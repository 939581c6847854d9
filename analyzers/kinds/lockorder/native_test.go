package lockorder_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
)

// TestNative checks the order over C++ and Rust: silent on locks taken in
// order, one after the other or without waiting; firing on each reverse
// edge, direct, through a call or a temporary guard; failing closed when a
// lock is taken nowhere or its pattern does not parse.
func TestNative(t *testing.T) { ruletest.Native(t, "testdata/native.yaml", "testdata/native") }
