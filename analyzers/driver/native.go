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
func Native(set *invariants.Set) []core.Finding {
	return NativeFiles(set, nil)
}

// NativeFiles is Native over a view of the sources (nil: the disk).
func NativeFiles(set *invariants.Set, files *overlay.Files) []core.Finding {
	return treesitter.Check(set, treesitter.Options{Files: files})
}
