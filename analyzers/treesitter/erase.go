package treesitter

import (
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// parse parses a file for an invariant: as its lang, once the macros the
// invariant erases are blanked (syntax.EraseMacros), within the parse
// budget.
func parse(inv *invariants.Invariant, path string, src []byte, budget time.Duration) (*syntax.File, error) {
	return syntax.ParseWithin(syntax.Lang(inv.Lang), path, syntax.EraseMacros(src, inv.Erase), budget)
}

// eraseKey identifies the macros an invariant erases, so that a file is
// parsed once per set of them.
func eraseKey(inv *invariants.Invariant) string { return strings.Join(inv.Erase, ",") }
