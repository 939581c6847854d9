package driver

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// Native checks the invariants whose targets are C, C++, CUDA or Rust
// code, with the tree-sitter front end. Those invariants name files, not
// Go packages, so every driver checks them once per run, beside the Go
// analysis. budget bounds each parse (nativecheck.Options.ParseBudget; 0
// means the default).
// The set's patch chains are applied first, as Run applies them.
func Native(set *invariants.Set, budget time.Duration) []core.Finding {
	chains := applyChains(set, nil)
	fs := NativeFiles(set, chains.view, budget)
	chains.annotate(fs)
	fs = append(fs, chains.findings...)
	core.Sort(fs)
	return fs
}

// PatchedView is the view of the sources with the set's patch chains
// applied, as Run and Native check them (nil when the set has none): what
// the prover mutates, so that a mutant of a patched upstream is the
// patched code reverted.
func PatchedView(set *invariants.Set) *overlay.Files {
	return applyChains(set, nil).view
}

// NotCheckedHere is the message of a C, C++, CUDA, Rust or Metal invariant
// in a build without the tree-sitter front end (see native_nocgo.go).
const NotCheckedHere = "this build has no C/C++/CUDA/Rust/Metal front end (it was built without cgo); run guardlint, built with cgo, to check it"
