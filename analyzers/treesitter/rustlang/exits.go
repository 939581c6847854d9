package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// exits lists the live `return` expressions and `?` operators of the
// function (not of its closures) and whether its end is reached.
func exits(f *syntax.File, fn *model.Func, c *model.Config) ([]*syntax.Node, bool) {
	states := map[*syntax.Node]core.Liveness{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) { states[n] = s }
	term := w.block(fn.Body, core.Liveness{})
	var out []*syntax.Node
	// An exit is live when its nearest statement is; the walk hands each
	// node that statement's state rather than have each exit climb to it.
	around := map[*syntax.Node]core.Liveness{}
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		if n != fn.Body && (isItem(n) || n.Kind == "closure_expression") {
			return false // another function's returns
		}
		if s, ok := states[n]; ok {
			around[n] = s
		} else if n.Parent != nil {
			around[n] = around[n.Parent]
		}
		if (n.Kind == "return_expression" || n.Kind == "try_expression") && around[n].Dead == "" {
			out = append(out, n)
		}
		return true
	})
	return out, !term
}

// Exits implements model.Language.
func (Language) Exits(f *syntax.File, fn *model.Func, c *model.Config) ([]*syntax.Node, bool) {
	return exits(f, fn, c)
}
