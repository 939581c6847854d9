package treesitter

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// parse parses a file for an invariant: as its lang, once the macros the
// invariant erases are blanked (syntax.EraseMacros).
func parse(inv *invariants.Invariant, path string, src []byte) (*syntax.File, error) {
	return syntax.Parse(syntax.Lang(inv.Lang), path, syntax.EraseMacros(src, inv.Erase))
}

// eraseKey identifies the macros an invariant erases, so that a file is
// parsed once per set of them.
func eraseKey(inv *invariants.Invariant) string { return strings.Join(inv.Erase, ",") }
