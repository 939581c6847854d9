package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Accesses implements model.Accessor.
func (l Language) Accesses(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Access {
	return accesses(f, fn, typ, field, l.Liveness(f, fn, c))
}

// FieldType implements model.Accessor: the type of a named field of the
// struct or union typ.
func (Language) FieldType(f *syntax.File, typ, field string) []string {
	var out []string
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if out != nil {
			return false
		}
		if (n.Kind != "struct_item" && n.Kind != "union_item") || n.Child("name") == nil || f.Text(n.Child("name")) != typ {
			return true
		}
		if body := n.Child("body"); body != nil {
			for _, d := range body.NamedChildren() {
				if d.Kind == "field_declaration" && d.Child("name") != nil && f.Text(d.Child("name")) == field && d.Child("type") != nil {
					out = f.Tokens(d.Child("type"))
				}
			}
		}
		return false
	})
	return out
}

// ParamNames implements model.Accessor.
func (Language) ParamNames(f *syntax.File, fn *model.Func) []string {
	ps := fn.Node.Child("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for _, p := range ps.NamedChildren() {
		if p.Kind != "parameter" {
			continue
		}
		name := ""
		if pat := p.Child("pattern"); pat != nil && pat.Kind == "identifier" {
			name = f.Text(pat)
		}
		out = append(out, name)
	}
	return out
}

// Private implements model.Accessor: Rust's privacy is the module's,
// which Exposed already reads.
func (Language) Private(*syntax.File, string, string) bool { return false }

// HasBases implements model.Accessor: a Rust struct has no base.
func (Language) HasBases(*syntax.File, string) bool { return false }

// accesses finds the reads and writes of a field in a function: through
// `self` in typ's impls, and through a parameter or a `let` whose declared
// type names typ (`o: &T`, `p: Arc<T>`, `let q: &T = ...`). A struct
// literal initialises the field and is no access.
func accesses(f *syntax.File, fn *model.Func, typ, field string, live func(*syntax.Node) core.Liveness) []model.Access {
	method := len(fn.Path) >= 2 && fn.Path[len(fn.Path)-2] == typ
	ofType := map[string]bool{}
	syntax.Walk(fn.Node, func(n *syntax.Node) bool {
		if n != fn.Node && isItem(n) {
			return false
		}
		if n.Kind == "parameter" || n.Kind == "let_declaration" {
			if p, t := n.Child("pattern"), n.Child("type"); p != nil && t != nil && p.Kind == "identifier" {
				for _, tok := range f.Tokens(t) {
					if tok == typ {
						ofType[f.Text(p)] = true
					}
				}
			}
		}
		return true
	})
	var out []model.Access
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		if n != fn.Body && isItem(n) {
			return false // another function's code
		}
		if n.Kind != "field_expression" {
			return true
		}
		fld, v := n.Child("field"), n.Child("value")
		if fld == nil || v == nil || f.Text(fld) != field {
			return true
		}
		for v.Kind == "parenthesized_expression" && len(v.NamedChildren()) == 1 {
			v = v.NamedChildren()[0]
		}
		switch {
		case v.Kind == "self" && method:
			out = append(out, classify(f, n, []string{"self"}, live))
		case v.Kind == "identifier" && ofType[f.Text(v)]:
			out = append(out, classify(f, n, []string{f.Text(v)}, live))
		}
		return true
	})
	return out
}

// classify says what an access of the field at n does, climbing through
// parentheses, indexing and member accesses (an element or a member of
// the field is part of it) to the expression that uses it.
func classify(f *syntax.File, n *syntax.Node, obj []string, live func(*syntax.Node) core.Liveness) model.Access {
	a := model.Access{Node: n, Field: n, Object: obj, Liveness: live(n)}
	top := n
	index := false
	for p := top.Parent; p != nil; p = top.Parent {
		method := p.Kind == "field_expression" && p.Parent != nil && p.Parent.Kind == "call_expression" && p.Parent.Child("function") == p
		switch {
		case p.Kind == "parenthesized_expression":
		case p.Kind == "index_expression" && len(p.NamedChildren()) > 0 && p.NamedChildren()[0] == top:
			index = true
		case p.Kind == "field_expression" && p.Child("value") == top && !method:
		default:
			a.Write, a.How = use(f, top, p, method)
			a.Indexed = index
			if a.Write {
				a.Node = p
				if method {
					a.Node = p.Parent
				}
				if index {
					a.How += " through IndexMut"
				}
			}
			return a
		}
		top = p
	}
	return a
}

// use says whether the expression e, the field or a part of it, is
// written by its parent p, and how; method says that p calls a method on
// e.
func use(f *syntax.File, e, p *syntax.Node, method bool) (bool, string) {
	switch p.Kind {
	case "assignment_expression":
		if p.Child("left") == e {
			return true, "an assignment"
		}
	case "compound_assignment_expr":
		if p.Child("left") == e {
			return true, "a compound assignment"
		}
	case "reference_expression":
		for _, ch := range p.Children {
			if ch.Kind == "mutable_specifier" {
				return true, "&mut"
			}
		}
	case "field_expression":
		if name := f.Text(p.Child("field")); method && mutators[name] {
			return true, name + "()"
		}
	}
	return false, ""
}
