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
	var visit func(n *syntax.Node)
	visit = func(n *syntax.Node) {
		if n != fn.Body && (isItem(n) || n.Kind == "closure_expression") {
			return // another function's returns
		}
		if n.Kind == "return_expression" || n.Kind == "try_expression" {
			live := true
			for p := n; p != nil; p = p.Parent {
				if s, ok := states[p]; ok {
					live = s.Dead == ""
					break
				}
			}
			if live {
				out = append(out, n)
			}
		}
		for _, ch := range n.Children {
			visit(ch)
		}
	}
	visit(fn.Body)
	return out, !term
}

// Exits implements model.Language.
func (Language) Exits(f *syntax.File, fn *model.Func, c *model.Config) ([]*syntax.Node, bool) {
	return exits(f, fn, c)
}
