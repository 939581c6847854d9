package driver

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// Native checks the invariants whose targets are C, C++, CUDA or Rust
// code, with the tree-sitter front end. Those invariants name files, not
// Go packages, so every driver checks them once per run, beside the Go
// analysis.
// The set's patch chains are applied first, as Run applies them.
func Native(set *invariants.Set) []core.Finding {
	chains := applyChains(set, nil)
	fs := NativeFiles(set, chains.view)
	chains.annotate(fs)
	fs = append(fs, chains.findings...)
	core.Sort(fs)
	return fs
}

// NativeFiles is Native over a view of the sources (nil: the disk), with
// no patch chain applied beyond what the view holds.
func NativeFiles(set *invariants.Set, files *overlay.Files) []core.Finding {
	return treesitter.Check(set, treesitter.Options{Files: files})
}
