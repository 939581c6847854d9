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

// Leaves implements model.Language.
func (l Language) Leaves(f *syntax.File, n *syntax.Node) bool {
	switch n.Kind {
	case "return_statement", "co_return_statement", "throw_statement":
		return true
	case "expression_statement":
		return terminates(f, n)
	}
	return false
}

// Liveness implements model.Language: a node has the liveness of the
// innermost statement around it (a lambda's body is a statement, walked
// with the lambda's liveness).
func (l Language) Liveness(f *syntax.File, fn *model.Func, c *model.Config) func(n *syntax.Node) core.Liveness {
	states := map[*syntax.Node]core.Liveness{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) { states[n] = s }
	w.stmt(fn.Body, core.Liveness{})
	return func(n *syntax.Node) core.Liveness {
		for p := n; p != nil; p = p.Parent {
			if s, ok := states[p]; ok {
				return s
			}
		}
		return core.Liveness{}
	}
}
