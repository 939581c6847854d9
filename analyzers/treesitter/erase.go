package treesitter

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Parse parses a file for an invariant: as its lang, once the macros the
// invariant erases are blanked (syntax.EraseMacros), within the parse
// budget.
func Parse(inv *invariants.Invariant, path string, src []byte, budget time.Duration) (*syntax.File, error) {
	erased := syntax.EraseMacros(src, inv.Erase)
	f, err := syntax.ParseWithin(syntax.Lang(inv.Lang), path, erased, budget)
	if f != nil && len(inv.Erase) > 0 {
		f.Raw = src
	}
	return f, err
}
