package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// localAliases finds the locals of a body bound once, by reference or by
// address, to an expression: `auto& m = detail::eval_mutex();`, `T& m =
// x.mu;`, `auto* p = &mu_;`. A name declared twice in the body, or
// assigned after its declaration, is no alias.
func localAliases(f *syntax.File, body *syntax.Node) model.Aliases {
	out := model.Aliases{}
	declared := map[string]int{}
	assigned := map[string]bool{}
	syntax.Walk(body, func(n *syntax.Node) bool {
		switch n.Kind {
		case "assignment_expression":
			if l := n.Child("left"); l != nil && l.Kind == "identifier" {
				assigned[f.Text(l)] = true
			}
			return true
		case "init_declarator":
		default:
			return true
		}
		d, v := n.Child("declarator"), n.Child("value")
		if d == nil || v == nil {
			return true
		}
		var name *syntax.Node
		al := model.Alias{At: n}
		switch d.Kind {
		case "reference_declarator":
			if kids := d.NamedChildren(); len(kids) == 1 && kids[0].Kind == "identifier" {
				name, al.Expr = kids[0], f.Tokens(v)
			}
		case "pointer_declarator":
			inner := d.Child("declarator")
			if inner != nil && inner.Kind == "identifier" && v.Kind == "pointer_expression" && f.Text(v.Child("operator")) == "&" {
				name, al.Expr, al.Pointer = inner, f.Tokens(v.Child("argument")), true
			}
		case "identifier":
			declared[f.Text(d)]++ // a plain local: it shadows any alias of its name
		}
		if name == nil {
			return true
		}
		declared[f.Text(name)]++
		out[f.Text(name)] = al
		return true
	})
	for name := range out {
		if declared[name] != 1 || assigned[name] {
			delete(out, name)
		}
	}
	return out
}
