package driver

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// Native checks the invariants whose targets are C, C++, CUDA or Rust
// code, with the tree-sitter front end. Those invariants name files, not
// Go packages, so every driver checks them once per run, beside the Go
// analysis. budget bounds each parse (treesitter.Options.ParseBudget; 0
// means the default).
func Native(set *invariants.Set, budget time.Duration) []core.Finding {
	return treesitter.Check(set, treesitter.Options{ParseBudget: budget})
}
