package treesitter

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// NewFunction is a definition of a parsed file read outside a rule, for
// the facts the checks read of it (its calls, guards, acquisitions and
// dominance): `guardlint suggest` compares the locks held at a call
// before and after a fix with them, as excludes would see them.
func NewFunction(f *syntax.File, def *model.Func, lang model.Language, conf *model.Config) *Function {
	return &Function{File: f, Func: def, lang: lang, conf: conf}
}

// NewRuleFunction is a definition that an invariant's rule checks, with
// the invariant's configuration (ConfigOf) and the tokens of the rule's
// patterns and their shapes (Prepare); what the rule reports through it
// is its Findings.
func NewRuleFunction(inv *invariants.Invariant, f *syntax.File, def *model.Func, lang model.Language, conf *model.Config, patterns [][]string, shapes []model.Shape) *Function {
	return &Function{Inv: inv, File: f, Func: def, Patterns: patterns, Shapes: shapes, lang: lang, conf: conf}
}

// report is a finding at a node of a source file.
func report(inv *invariants.Invariant, f *syntax.File, n *syntax.Node, format string, args ...any) core.Finding {
	return core.Finding{Pos: f.Position(n.Start), End: f.Position(n.End), ID: inv.ID, Invariant: inv, Message: core.Message(inv, fmt.Sprintf(format, args...))}
}
