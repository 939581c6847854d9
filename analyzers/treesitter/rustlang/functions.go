package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// functions collects the functions of a file with their paths: modules,
// then the impl's self type or the trait, then the name. Items disabled by
// a cfg that does not hold are left out, so `#[cfg(unix)] fn f` and
// `#[cfg(windows)] fn f` are one function under a given configuration.
// Functions nested in function bodies are not collected.
func functions(f *syntax.File, c *model.Config) []*model.Func {
	var out []*model.Func
	var visit func(n *syntax.Node, scope []string)
	visit = func(n *syntax.Node, scope []string) {
		for _, ch := range n.Children {
			if !ch.Named || syntax.IsComment(ch) {
				continue
			}
			if ok, _ := cfgEnabled(f, attrsBefore(ch), c); !ok {
				continue
			}
			switch ch.Kind {
			case "function_item":
				name, body := ch.Child("name"), ch.Child("body")
				if name != nil && body != nil {
					out = append(out, &model.Func{Path: appendPath(scope, f.Text(name)), Node: ch, Name: name, Body: body})
				}
			case "mod_item", "trait_item":
				if body := ch.Child("body"); body != nil {
					visit(body, appendPath(scope, f.Text(ch.Child("name"))))
				}
			case "impl_item":
				if body := ch.Child("body"); body != nil {
					visit(body, appendPath(scope, typeName(f, ch.Child("type"))))
				}
			case "declaration_list", "source_file":
				visit(ch, scope)
			}
		}
	}
	visit(f.Root, nil)
	return out
}

// typeName is the last path segment of an impl's self type, without
// generic arguments or references: `a::S<T>` and `&S` are S.
func typeName(f *syntax.File, t *syntax.Node) string {
	for t != nil {
		switch t.Kind {
		case "type_identifier", "primitive_type", "identifier":
			return f.Text(t)
		case "generic_type":
			t = t.Child("type")
		case "scoped_type_identifier":
			t = t.Child("name")
		case "reference_type", "pointer_type":
			t = t.Child("type")
		default:
			return f.Text(t)
		}
	}
	return ""
}

// appendPath returns a new path: scope, then name.
func appendPath(scope []string, name string) []string {
	out := make([]string, 0, len(scope)+1)
	return append(append(out, scope...), name)
}
