package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// exits lists the live return statements of the function (not of its
// lambdas) and whether its end is reached.
func exits(f *syntax.File, fn *model.Func, c *model.Config) ([]*syntax.Node, bool) {
	var out []*syntax.Node
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) {
		if n.Kind != "return_statement" || s.Dead != "" || w.inLambda > 0 {
			return
		}
		out = append(out, n)
	}
	term := w.stmt(fn.Body, core.Liveness{})
	return out, !term
}

// Exits implements model.Language.
func (l Language) Exits(f *syntax.File, fn *model.Func, c *model.Config) ([]*syntax.Node, bool) {
	return exits(f, fn, c)
}
