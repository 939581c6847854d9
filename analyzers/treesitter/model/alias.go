package model

import "github.com/guardlint/guardlint/analyzers/treesitter/syntax"

// Aliases are the locals of a body bound once to a lock expression, by
// reference or by address: `auto& m = detail::eval_mutex();`, `auto* p =
// &mu_;`, `let m = &self.mu;`. A guard of the alias is a guard of the
// expression.
type Aliases map[string]Alias

// Alias is one local bound to an expression.
type Alias struct {
	// At is the binding's declaration: only guards after it see it.
	At *syntax.Node
	// Expr is the tokens of the expression the local refers to.
	Expr []string
	// Pointer says that the local holds the expression's address, so
	// that `*p` (and `p->`) is the expression.
	Pointer bool
}

// Expand returns the lock expressions with each alias a guard at n names
// replaced by what it stands for added beside it: `m`, with `auto& m =
// detail::eval_mutex();` before n, also reads `detail::eval_mutex()`.
func (a Aliases) Expand(n *syntax.Node, locks [][]string) [][]string {
	out := locks
	for _, l := range locks {
		var name string
		var deref bool
		switch {
		case len(l) == 1:
			name = l[0]
		case len(l) == 2 && l[0] == "*":
			name, deref = l[1], true
		default:
			continue
		}
		al, ok := a[name]
		if !ok || al.Pointer != deref || al.At.End > n.Start {
			continue
		}
		out = append(out, al.Expr)
	}
	return out
}
