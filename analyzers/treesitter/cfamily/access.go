package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Accesses implements model.Accessor.
func (l Language) Accesses(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Access {
	return accesses(f, fn, typ, field, l.Liveness(f, fn, c))
}

// FieldType implements model.Accessor: the type of a field declaration
// of the class, struct or union named typ (or of a typedef'd anonymous
// struct named typ).
func (l Language) FieldType(f *syntax.File, typ, field string) []string {
	var out []string
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if out != nil {
			return false
		}
		if n.Kind != "field_declaration_list" || !namesType(f, n.Parent, typ) {
			return true
		}
		for _, d := range n.NamedChildren() {
			if d.Kind != "field_declaration" {
				continue
			}
			for _, decl := range d.ChildrenOf("declarator") {
				if name := declaredName(decl); name != nil && f.Text(name) == field && d.Child("type") != nil {
					out = f.Tokens(d.Child("type"))
				}
			}
		}
		return out == nil
	})
	return out
}

// ParamNames implements model.Accessor.
func (l Language) ParamNames(f *syntax.File, fn *model.Func) []string {
	d := fn.Node.Child("declarator")
	for d != nil && d.Kind != "function_declarator" {
		d = d.Child("declarator")
	}
	if d == nil || d.Child("parameters") == nil {
		return nil
	}
	var out []string
	for _, p := range d.Child("parameters").NamedChildren() {
		if p.Kind != "parameter_declaration" && p.Kind != "optional_parameter_declaration" {
			continue
		}
		name := ""
		if n := declaredName(p.Child("declarator")); n != nil && n.Kind == "identifier" {
			name = f.Text(n)
		}
		out = append(out, name)
	}
	return out
}

// Private implements model.Accessor: the member is declared after a
// `private:` label of typ's body, or before any label of a class (whose
// members are private by default), and nowhere else in it.
func (l Language) Private(f *syntax.File, typ, method string) bool {
	private, public := false, false
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if n.Kind != "field_declaration_list" || !namesType(f, n.Parent, typ) {
			return true
		}
		access := "public"
		if n.Parent.Kind == "class_specifier" {
			access = "private"
		}
		for _, d := range n.NamedChildren() {
			switch d.Kind {
			case "access_specifier":
				access = f.Text(d)
			case "field_declaration", "declaration", "function_definition", "template_declaration":
				if declares(f, d, method) {
					if access == "private" {
						private = true
					} else {
						public = true
					}
				}
			}
		}
		return false
	})
	return private && !public
}

// HasBases implements model.Accessor.
func (l Language) HasBases(f *syntax.File, typ string) bool {
	found := false
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if found {
			return false
		}
		if n.Kind == "field_declaration_list" && namesType(f, n.Parent, typ) {
			for _, ch := range n.Parent.Children {
				if ch.Kind == "base_class_clause" {
					found = true
				}
			}
			return false
		}
		return true
	})
	return found
}

// declares reports whether a member declaration declares the function
// name.
func declares(f *syntax.File, d *syntax.Node, name string) bool {
	found := false
	syntax.Walk(d, func(n *syntax.Node) bool {
		if found || n.Kind == "compound_statement" {
			return false
		}
		if n.Kind == "function_declarator" {
			if id := n.Child("declarator"); id != nil && f.Text(id) == name {
				found = true
			}
		}
		return true
	})
	return found
}

// namesType reports whether a class, struct or union specifier is typ:
// by its name, or, without one, by the typedef it is declared in.
func namesType(f *syntax.File, spec *syntax.Node, typ string) bool {
	if spec == nil {
		return false
	}
	if name := spec.Child("name"); name != nil {
		segs := f.Tokens(name)
		return len(segs) > 0 && segs[len(segs)-1] == typ
	}
	if p := spec.Parent; p != nil && p.Kind == "type_definition" {
		for _, d := range p.ChildrenOf("declarator") {
			if f.Text(d) == typ {
				return true
			}
		}
	}
	return false
}

// mutatorWrites are the methods that change the container or smart
// pointer they are called on (writes.go's mutators), as named in
// findings.
var mutatorWrites = mutators

// scopeKinds are the nodes a declaration's name is visible to the end
// of.
var scopeKinds = map[string]bool{
	"compound_statement": true, "for_statement": true, "for_range_loop": true, "lambda_expression": true,
	"function_definition": true, "if_statement": true, "while_statement": true, "switch_statement": true, "catch_clause": true,
}

// accesses finds the reads and writes of a field in a function: through
// `this`, through a local or parameter whose declared type names typ
// (`T* t`, `const T& o`, `std::shared_ptr<T> p`), and, in typ's methods,
// the bare field that no declaration hides. A constructor's member
// initialisers are not the body's and are not listed.
func accesses(f *syntax.File, fn *model.Func, typ, field string, live func(*syntax.Node) core.Liveness) []model.Access {
	method := len(fn.Path) >= 2 && fn.Path[len(fn.Path)-2] == typ
	// Names declared in the function: those of typ, whose fields are
	// typ's, and the declarations of the field's own name, which hide it.
	ofType := map[string]bool{}
	var hiding []*syntax.Node
	declared := map[*syntax.Node]bool{}
	declare := func(typeNode, decl *syntax.Node) {
		name := declaredName(decl)
		if name == nil || name.Kind != "identifier" {
			return
		}
		declared[name] = true
		if f.Text(name) == field {
			hiding = append(hiding, name)
		}
		if typeNode != nil && (hasToken(f.Tokens(typeNode), typ) || autoOf(f, typeNode, decl, typ)) {
			ofType[f.Text(name)] = true
		}
	}
	syntax.Walk(fn.Node, func(n *syntax.Node) bool {
		if n != fn.Node && n.Kind == "function_definition" {
			return false
		}
		switch n.Kind {
		case "parameter_declaration", "optional_parameter_declaration", "for_range_loop":
			declare(n.Child("type"), n.Child("declarator"))
		case "declaration":
			for _, d := range n.ChildrenOf("declarator") {
				declare(n.Child("type"), d)
			}
		}
		return true
	})
	// hidden reports whether a declaration of the field's name is in
	// scope at n.
	hidden := func(n *syntax.Node) bool {
		for _, h := range hiding {
			s := h.Parent
			for s != nil && !scopeKinds[s.Kind] {
				s = s.Parent
			}
			if s != nil && s.Contains(n) && h.Start <= n.Start {
				return true
			}
		}
		return false
	}
	var out []model.Access
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		switch n.Kind {
		case "function_definition", "class_specifier", "struct_specifier", "union_specifier":
			if n != fn.Body && (n.Kind == "function_definition" || n.Child("body") != nil) {
				return false // another function's code
			}
		case "field_expression":
			fld := n.Child("field")
			if fld == nil || f.Text(fld) != field {
				return true
			}
			obj := objectOf(f, n.Child("argument"), ofType)
			if obj == nil {
				return true
			}
			out = append(out, classify(f, n, obj, live))
		case "identifier":
			if method && f.Text(n) == field && !declared[n] && !hidden(n) && n.Field != "declarator" {
				out = append(out, classify(f, n, []string{"this"}, live))
			}
		}
		return true
	})
	return out
}

// autoOf reports whether an `auto` declaration is given a value whose
// type names typ by what makes it: a cast (`auto* h =
// static_cast<Handshaker*>(arg);`, `(Handshaker*)arg`) or a `new`.
func autoOf(f *syntax.File, typeNode, decl *syntax.Node, typ string) bool {
	if typeNode.Kind != "placeholder_type_specifier" || decl.Kind != "init_declarator" {
		return false
	}
	v := decl.Child("value")
	for v != nil && v.Kind == "parenthesized_expression" && len(v.NamedChildren()) == 1 {
		v = v.NamedChildren()[0]
	}
	if v == nil {
		return false
	}
	var named *syntax.Node
	switch v.Kind {
	case "cast_expression", "new_expression":
		named = v.Child("type")
	case "call_expression":
		fun := v.Child("function")
		if fun != nil && fun.Kind == "template_function" && model.NamedCasts[f.Text(fun.Child("name"))] {
			named = fun.Child("arguments")
		}
	}
	return named != nil && hasToken(f.Tokens(named), typ)
}

// objectOf returns the tokens of the value a field expression's argument
// names when it is `this`, `(*this)` or a name declared with typ, or nil.
func objectOf(f *syntax.File, arg *syntax.Node, ofType map[string]bool) []string {
	for arg != nil && arg.Kind == "parenthesized_expression" && len(arg.NamedChildren()) == 1 {
		arg = arg.NamedChildren()[0]
	}
	switch {
	case arg == nil:
		return nil
	case arg.Kind == "this":
		return []string{"this"}
	case arg.Kind == "pointer_expression" && f.Text(arg.Child("operator")) == "*":
		inner := arg.Child("argument")
		if inner != nil && inner.Kind == "this" {
			return []string{"this"}
		}
		if inner != nil && inner.Kind == "identifier" && ofType[f.Text(inner)] {
			return []string{f.Text(inner)}
		}
	case arg.Kind == "identifier" && ofType[f.Text(arg)]:
		return []string{f.Text(arg)}
	}
	return nil
}

// hasToken reports whether a type's tokens name typ.
func hasToken(toks []string, typ string) bool {
	for _, t := range toks {
		if t == typ {
			return true
		}
	}
	return false
}

// classify says what an access of the field at n does. It climbs from n
// through parentheses, member accesses with `.` and subscripts (an element
// or a member of the field is part of it; what a pointer field points to
// is not) to the expression that uses it.
func classify(f *syntax.File, n *syntax.Node, obj []string, live func(*syntax.Node) core.Liveness) model.Access {
	a := model.Access{Node: n, Field: n, Object: obj, Liveness: live(n)}
	top := n
	subscript := false
	for p := top.Parent; p != nil; p = top.Parent {
		switch {
		case p.Kind == "parenthesized_expression":
		case p.Kind == "subscript_expression" && p.Child("argument") == top:
			subscript = true
		case p.Kind == "field_expression" && p.Child("argument") == top && f.Text(p.Child("operator")) == "." &&
			(p.Parent == nil || p.Parent.Kind != "call_expression" || p.Parent.Child("function") != p):
		default:
			a.Node = top
			a.Write, a.How = use(f, top, p)
			a.Indexed = subscript
			if !a.Write && subscript {
				a.Subscript, a.How = true, "operator[]"
			} else if a.Write && subscript {
				a.How += " through operator[]"
			}
			if a.Write || a.Subscript {
				a.Node = p
				if p.Kind == "field_expression" || p.Kind == "init_declarator" || p.Kind == "for_range_loop" || p.Kind == "argument_list" {
					a.Node = top
				}
				if p.Kind == "field_expression" && p.Parent != nil {
					a.Node = p.Parent
				}
			}
			return a
		}
		top = p
	}
	return a
}

// use says whether the expression e, the field or a part of it, is
// written by its parent p, and how.
func use(f *syntax.File, e, p *syntax.Node) (bool, string) {
	switch p.Kind {
	case "assignment_expression":
		if p.Child("left") == e {
			if op := f.Text(p.Child("operator")); op != "=" && op != "" {
				return true, "a compound assignment"
			}
			return true, "an assignment"
		}
	case "update_expression":
		return true, f.Text(p.Child("operator"))
	case "pointer_expression":
		if f.Text(p.Child("operator")) == "&" {
			return true, "taking its address"
		}
	case "field_expression":
		// A method call on the field: `cache_.insert(k, v)`, `a->b`.
		if call := p.Parent; call != nil && call.Kind == "call_expression" && call.Child("function") == p {
			if name := f.Text(p.Child("field")); f.Text(p.Child("operator")) == "." && mutatorWrites[name] {
				return true, name + "()"
			}
		}
	case "init_declarator":
		if p.Child("value") == e && nonConstRef(p.Child("declarator"), p.Parent) {
			return true, "binding a non-const reference to it"
		}
	case "for_range_loop":
		if p.Child("right") == e && nonConstRef(p.Child("declarator"), p) {
			return true, "binding a non-const reference to it"
		}
	}
	return false, ""
}

// nonConstRef reports whether a declarator declares a reference and
// its declaration (decl) is not const: a name through which
// the field can be changed later.
func nonConstRef(d, decl *syntax.Node) bool {
	if d == nil || decl == nil || d.Kind != "reference_declarator" {
		return false
	}
	for _, ch := range decl.Children {
		if ch.Kind == "type_qualifier" && len(ch.Children) > 0 && ch.Children[0].Kind == "const" {
			return false
		}
	}
	return true
}
