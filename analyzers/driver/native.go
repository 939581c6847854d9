package driver

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// Native checks the invariants whose targets are C, C++, CUDA or Rust
// code, with the tree-sitter front end. Those invariants name files, not
// Go packages, so every driver checks them once per run, beside the Go
// analysis. budget bounds each parse (treesitter.Options.ParseBudget; 0
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

// NativeFiles is Native over a view of the sources (nil: the disk), with
// no patch chain applied beyond what the view holds.
func NativeFiles(set *invariants.Set, files *overlay.Files, budget time.Duration) []core.Finding {
	return treesitter.Check(set, treesitter.Options{Files: files, ParseBudget: budget})
}
