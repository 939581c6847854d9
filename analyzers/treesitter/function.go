package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// NewFunction is a definition of a parsed file read outside a rule, for
// the facts the checks read of it (its calls, guards, acquisitions and
// dominance): `guardlint suggest` compares the locks held at a call
// before and after a fix with them, as excludes would see them.
func NewFunction(f *syntax.File, def *model.Func, lang model.Language, conf *model.Config) *Function {
	return &Function{File: f, Func: def, lang: lang, conf: conf}
}
