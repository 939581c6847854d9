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

// Leaves implements model.Language.
func (Language) Leaves(f *syntax.File, n *syntax.Node) bool {
	e := n
	if kids := n.NamedChildren(); n.Kind == "expression_statement" && len(kids) == 1 {
		e = kids[0]
	}
	switch e.Kind {
	case "break_expression", "continue_expression":
		return false
	}
	return diverges(f, n)
}

// Liveness implements model.Language: a node has the liveness of the
// innermost statement around it, unless a closure that never runs here
// comes first (a closure whose body is a bare expression holds no
// statement of its own).
func (Language) Liveness(f *syntax.File, fn *model.Func, c *model.Config) func(n *syntax.Node) core.Liveness {
	states := map[*syntax.Node]core.Liveness{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) { states[n] = s }
	w.block(fn.Body, core.Liveness{})
	return func(n *syntax.Node) core.Liveness {
		for p := n; p != nil; p = p.Parent {
			if p.Kind == "closure_expression" && !w.boundAndCalled(p) && !calledInPlace(p) && !w.runBy(p) {
				return core.Liveness{Dead: "in a closure that is never called here", Maybe: true}
			}
			if s, ok := states[p]; ok {
				return s
			}
		}
		return core.Liveness{}
	}
}
