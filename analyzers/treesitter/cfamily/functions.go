package cfamily

import (
	"strings"

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
	// The walk keeps its own stack (a global initializer can nest as deep
	// as a body); items are pushed in reverse to come out in source order.
	type item struct {
		n     *syntax.Node
		scope []string
	}
	stack := []item{{f.Root, nil}}
	push := func(scope []string, nodes ...*syntax.Node) {
		for i := len(nodes) - 1; i >= 0; i-- {
			stack = append(stack, item{nodes[i], scope})
		}
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, scope := it.n, it.scope
		switch n.Kind {
		case "function_definition":
			if fn := definition(f, n, scope); fn != nil {
				out = append(out, fn)
			}
		case "preproc_if", "preproc_ifdef":
			arms := branches(f, n, c)
			for i := len(arms) - 1; i >= 0; i-- {
				if arms[i].live != no {
					push(scope, arms[i].items...)
				}
			}
		case "namespace_definition":
			inner := scope
			if name := n.Child("name"); name != nil {
				inner = appendPath(scope, nameSegs(f, name))
			}
			if body := n.Child("body"); body != nil && len(inner) <= model.MaxScope {
				push(inner, body)
			}
		case "class_specifier", "struct_specifier", "union_specifier":
			body := n.Child("body")
			name := n.Child("name")
			if body != nil && name != nil {
				if inner := appendPath(scope, nameSegs(f, name)); len(inner) <= model.MaxScope {
					push(inner, body)
				}
			}
		case "compound_statement", "lambda_expression":
		default:
			var named []*syntax.Node
			for _, ch := range n.Children {
				if ch.Named {
					named = append(named, ch)
				}
			}
			push(scope, named...)
		}
	}
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
// segments without template arguments: `a::B<T>::m` is [a B m]. A
// qualified name nests one level per segment, so the segments are
// collected with a stack of their own rather than by recursion.
func nameSegs(f *syntax.File, n *syntax.Node) []string {
	var out []string
	stack := []*syntax.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case "identifier", "field_identifier", "namespace_identifier", "type_identifier", "primitive_type":
			out = append(out, f.Text(n))
		case "qualified_identifier", "nested_namespace_specifier":
			for i := len(n.Children) - 1; i >= 0; i-- {
				if ch := n.Children[i]; ch.Named && !syntax.IsComment(ch) {
					stack = append(stack, ch)
				}
			}
		case "template_type", "template_function", "template_method":
			if name := n.Child("name"); name != nil {
				stack = append(stack, name)
			}
		case "destructor_name":
			s := "~"
			for _, t := range f.Tokens(n) {
				if t != "~" {
					s += t
				}
			}
			out = append(out, s)
		case "operator_name":
			out = append(out, strings.Join(f.Tokens(n), ""))
		}
	}
	return out
}

// appendPath returns a new path: scope, then segs.
func appendPath(scope, segs []string) []string {
	out := make([]string, 0, len(scope)+len(segs))
	return append(append(out, scope...), segs...)
}
