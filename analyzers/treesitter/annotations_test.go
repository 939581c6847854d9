package treesitter_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
)

func TestCPP(t *testing.T) { ruletest.Native(t, "testdata/cpp.yaml", "testdata/cpp") }

func TestRust(t *testing.T) { ruletest.Native(t, "testdata/rust.yaml", "testdata/rust") }

func TestC(t *testing.T) { ruletest.Native(t, "testdata/c.yaml", "testdata/c") }

func TestCUDA(t *testing.T) { ruletest.Native(t, "testdata/cuda.yaml", "testdata/cuda") }

func TestMetal(t *testing.T) { ruletest.Native(t, "testdata/metal.yaml", "testdata/metal") }

func TestRustIdioms(t *testing.T) {
	ruletest.Native(t, "testdata/rust_idioms.yaml", "testdata/rust_idioms")
}
