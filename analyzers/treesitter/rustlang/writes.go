package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// mutators are methods of Option, Vec and the like that change the field
// they are called on: `self.active.take()`.
var mutators = map[string]bool{
	"take": true, "replace": true, "insert": true, "get_or_insert": true, "get_or_insert_with": true,
	"clear": true, "push": true, "truncate": true, "as_mut": true,
	"remove": true, "entry": true, "extend": true, "retain": true, "drain": true, "pop": true,
	"push_back": true, "push_front": true, "pop_back": true, "pop_front": true, "append": true,
	"get_mut": true, "iter_mut": true, "swap_remove": true, "resize": true, "sort": true, "dedup": true,
}

// writes finds the writes of a field in a function: `x.field = v`,
// `x.field += v`, `&mut x.field`, `x.field.take()`, and a `typ { field:
// v }` literal. The receiver's type is not known on a syntax tree, so
// `x.field` counts whatever x is.
func writes(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Write {
	states := map[*syntax.Node]core.Liveness{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) { states[n] = s }
	w.block(fn.Body, core.Liveness{})
	var out []model.Write
	// isField reports whether n is the field, or an element of it
	// (`self.map[k] = v` writes through IndexMut).
	isField := func(n *syntax.Node) bool {
		for n != nil && (n.Kind == "parenthesized_expression" && len(n.NamedChildren()) == 1 || n.Kind == "index_expression") {
			n = n.NamedChildren()[0]
		}
		if n == nil || n.Kind != "field_expression" {
			return false
		}
		fld := n.Child("field")
		return fld != nil && f.Text(fld) == field
	}
	// A write takes the state of the nearest statement around it, unless
	// a closure that never runs here comes first: a closure whose body is
	// a bare expression holds no statement of its own. The walk below
	// hands each node the state of the nearest of the two, so that no
	// write climbs the tree to find it.
	around := map[*syntax.Node]core.Liveness{}
	add := func(n *syntax.Node) {
		out = append(out, model.Write{Node: n, Liveness: around[n]})
	}
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		if n != fn.Body && isItem(n) {
			return false // another function's code
		}
		if n.Kind == "closure_expression" && !w.boundAndCalled(n) && !calledInPlace(n) && !w.runBy(n) {
			around[n] = core.Liveness{Dead: "in a closure that is never called here", Maybe: true}
		} else if s, ok := states[n]; ok {
			around[n] = s
		} else if n.Parent != nil {
			around[n] = around[n.Parent]
		}
		switch n.Kind {
		case "assignment_expression", "compound_assignment_expr":
			if isField(n.Child("left")) {
				add(n)
			}
		case "reference_expression":
			mut := false
			for _, ch := range n.Children {
				if ch.Kind == "mutable_specifier" {
					mut = true
				}
			}
			if mut && isField(n.Child("value")) {
				add(n)
			}
		case "call_expression":
			if fe := n.Child("function"); fe != nil && fe.Kind == "field_expression" &&
				mutators[f.Text(fe.Child("field"))] && isField(fe.Child("value")) {
				add(n)
			}
		case "struct_expression":
			if name := n.Child("name"); name != nil && typeName(f, name) == typ {
				if body := n.Child("body"); body != nil {
					for _, init := range body.NamedChildren() {
						fld := init.Child("field")
						if init.Kind == "shorthand_field_initializer" && len(init.NamedChildren()) > 0 {
							fld = init.NamedChildren()[0]
						}
						if fld != nil && f.Text(fld) == field {
							add(init)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// calledInPlace reports whether a closure is the callee of a call:
// `(|| ...)()`.
func calledInPlace(n *syntax.Node) bool {
	p := n.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	return p != nil && p.Kind == "call_expression" && p.Child("function") != nil && p.Child("function").Contains(n)
}
