package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// mutators are methods that change the object they are called on when the
// field holds a smart pointer or a container: `active.reset()`,
// `encoders_.emplace(k, v)`, `streams.clear()`.
var mutators = map[string]bool{
	"reset": true, "release": true, "swap": true,
	"insert": true, "insert_or_assign": true, "emplace": true, "emplace_hint": true, "try_emplace": true,
	"erase": true, "clear": true, "extract": true, "merge": true,
	"push_back": true, "emplace_back": true, "pop_back": true, "push_front": true, "emplace_front": true,
	"pop_front": true, "push": true, "pop": true, "emplace_after": true, "insert_after": true, "erase_after": true,
	"assign": true, "resize": true,
}

// writes finds the writes of a field in a function. The receiver's type is
// not known on a syntax tree, so `x.field` and `x->field` count whatever
// x is; a bare `field` counts in the methods of typ, where it means
// this->field.
func writes(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Write {
	states := map[*syntax.Node]core.Liveness{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) { states[n] = s }
	w.stmt(fn.Body, core.Liveness{})
	method := len(fn.Path) >= 2 && fn.Path[len(fn.Path)-2] == typ
	// isField reports whether n is the field, or an element of it
	// (`field[k]`: operator[] of a map or vector writes into it).
	isField := func(n *syntax.Node) bool {
		for n != nil && (n.Kind == "parenthesized_expression" && len(n.NamedChildren()) == 1 || n.Kind == "subscript_expression") {
			if n.Kind == "subscript_expression" {
				n = n.Child("argument")
				continue
			}
			n = n.NamedChildren()[0]
		}
		switch {
		case n == nil:
			return false
		case n.Kind == "field_expression":
			fld := n.Child("field")
			return fld != nil && f.Text(fld) == field
		case n.Kind == "identifier":
			return method && f.Text(n) == field
		}
		return false
	}
	var out []model.Write
	// A write takes the state of the nearest statement around it. The
	// walk below hands each node the state of its nearest statement, so
	// that no write climbs the tree to find it.
	around := map[*syntax.Node]core.Liveness{}
	add := func(n *syntax.Node) {
		out = append(out, model.Write{Node: n, Liveness: around[n]})
	}
	// A constructor's member initialiser writes the field.
	if method && fn.Path[len(fn.Path)-1] == typ {
		for _, ch := range fn.Node.Children {
			if ch.Kind != "field_initializer_list" {
				continue
			}
			for _, init := range ch.NamedChildren() {
				if kids := init.NamedChildren(); len(kids) > 0 && f.Text(kids[0]) == field {
					out = append(out, model.Write{Node: init})
				}
			}
		}
	}
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		if s, ok := states[n]; ok {
			around[n] = s
		} else if n.Parent != nil {
			around[n] = around[n.Parent]
		}
		switch n.Kind {
		case "function_definition", "class_specifier", "struct_specifier", "union_specifier":
			if n != fn.Body && (n.Kind == "function_definition" || n.Child("body") != nil) {
				return false // another function's code
			}
		case "assignment_expression":
			if isField(n.Child("left")) {
				add(n)
			}
		case "update_expression", "pointer_expression":
			if n.Kind == "update_expression" || f.Text(n.Child("operator")) == "&" {
				if isField(n.Child("argument")) {
					add(n)
				}
			}
		case "call_expression":
			if fe := n.Child("function"); fe != nil && fe.Kind == "field_expression" &&
				mutators[f.Text(fe.Child("field"))] && isField(fe.Child("argument")) {
				add(n)
			}
		}
		return true
	})
	return out
}
