//go:build cgo

package guardedby_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
)

// The tree-sitter facet, on annotated sources of every language it reads.

func TestNativeCPP(t *testing.T) {
	ruletest.Native(t, "testdata/native/cpp.yaml", "testdata/native/cpp")
}

func TestNativeC(t *testing.T) {
	ruletest.Native(t, "testdata/native/c.yaml", "testdata/native/c")
}

func TestNativeCUDA(t *testing.T) {
	ruletest.Native(t, "testdata/native/cuda.yaml", "testdata/native/cuda")
}

func TestNativeRust(t *testing.T) {
	ruletest.Native(t, "testdata/native/rust.yaml", "testdata/native/rust")
}
