package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// functions collects the function definitions of a file with their
// qualified paths. Arms of #if that are not compiled under the defines are
// skipped; arms whose condition cannot be decided are searched.
// Definitions inside function bodies (local classes, GNU nested
// functions) are not collected: they are not reachable by a name.
func functions(f *syntax.File, c *model.Config) []*model.Func {
	var out []*model.Func
	var visit func(n *syntax.Node, scope []string)
	visit = func(n *syntax.Node, scope []string) {
		switch n.Kind {
		case "function_definition":
			if fn := definition(f, n, scope); fn != nil {
				out = append(out, fn)
			}
			return
		case "preproc_if", "preproc_ifdef":
			for _, b := range branches(f, n, c) {
				if b.live != no {
					for _, it := range b.items {
						visit(it, scope)
					}
				}
			}
			return
		case "namespace_definition":
			inner := scope
			if name := n.Child("name"); name != nil {
				inner = appendPath(scope, nameSegs(f, name))
			}
			if body := n.Child("body"); body != nil {
				visit(body, inner)
			}
			return
		case "class_specifier", "struct_specifier", "union_specifier":
			body := n.Child("body")
			name := n.Child("name")
			if body == nil || name == nil {
				return
			}
			visit(body, appendPath(scope, nameSegs(f, name)))
			return
		case "compound_statement", "lambda_expression":
			return
		}
		for _, ch := range n.Children {
			if ch.Named {
				visit(ch, scope)
			}
		}
	}
	visit(f.Root, nil)
	return out
}

// definition builds the Func of a function_definition.
func definition(f *syntax.File, n *syntax.Node, scope []string) *model.Func {
	body := n.Child("body")
	decl := n.Child("declarator")
	if body == nil || decl == nil {
		return nil
	}
	name := declaredName(decl)
	if name == nil {
		return nil
	}
	segs := nameSegs(f, name)
	if len(segs) == 0 {
		return nil
	}
	emptyDefaults(decl)
	return &model.Func{Path: appendPath(scope, segs), Node: n, Name: name, Body: body}
}

// emptyDefaults repairs the grammar's reading of a default argument `T x
// = {}` (value initialisation): tree-sitter-cpp reads the `{}` as a
// compound literal whose type is MISSING, which would make the whole
// definition unverifiable for nothing. The literal becomes the empty
// initialiser list it is.
func emptyDefaults(decl *syntax.Node) {
	for d := decl; d != nil; d = d.Child("declarator") {
		if d.Kind != "function_declarator" {
			continue
		}
		for _, p := range d.Child("parameters").NamedChildren() {
			v := p.Child("default_value")
			if p.Kind != "optional_parameter_declaration" || v == nil || v.Kind != "compound_literal_expression" {
				continue
			}
			t, list := v.Child("type"), v.Child("value")
			if t != nil && t.Bad && t.Start == t.End && list != nil && len(list.NamedChildren()) == 0 {
				list.Field, list.Parent = "default_value", p
				p.Children = replace(p.Children, v, list)
			}
		}
		return
	}
}

// declaredName follows declarators (pointer, reference, function,
// parenthesized) to the name they declare.
func declaredName(d *syntax.Node) *syntax.Node {
	for d != nil {
		switch d.Kind {
		case "function_declarator", "pointer_declarator", "reference_declarator", "parenthesized_declarator",
			"attributed_declarator", "array_declarator", "init_declarator":
			next := d.Child("declarator")
			if next == nil {
				kids := d.NamedChildren()
				if len(kids) == 0 {
					return nil
				}
				next = kids[0]
			}
			d = next
		default:
			return d
		}
	}
	return nil
}

// nameSegs splits a (possibly qualified, possibly templated) name into its
// segments without template arguments: `a::B<T>::m` is [a B m].
func nameSegs(f *syntax.File, n *syntax.Node) []string {
	switch n.Kind {
	case "identifier", "field_identifier", "namespace_identifier", "type_identifier", "primitive_type":
		return []string{f.Text(n)}
	case "qualified_identifier", "nested_namespace_specifier":
		var out []string
		for _, ch := range n.Children {
			if ch.Named && !syntax.IsComment(ch) {
				out = append(out, nameSegs(f, ch)...)
			}
		}
		return out
	case "template_type", "template_function", "template_method":
		if name := n.Child("name"); name != nil {
			return nameSegs(f, name)
		}
	case "destructor_name":
		s := "~"
		for _, t := range f.Tokens(n) {
			if t != "~" {
				s += t
			}
		}
		return []string{s}
	case "operator_name":
		s := ""
		for _, t := range f.Tokens(n) {
			s += t
		}
		return []string{s}
	}
	return nil
}

// appendPath returns a new path: scope, then segs.
func appendPath(scope, segs []string) []string {
	out := make([]string, 0, len(scope)+len(segs))
	return append(append(out, scope...), segs...)
}
