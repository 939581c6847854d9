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
	// Modules nest as deep as a file spells them, so the walk keeps its
	// own stack. A container's functions and inner containers are pushed
	// in reverse, so that they come out in source order.
	type item struct {
		n     *syntax.Node // a function_item, or a node whose children are items
		scope []string
	}
	stack := []item{{f.Root, nil}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n.Kind == "function_item" {
			name := it.n.Child("name")
			out = append(out, &model.Func{Path: appendPath(it.scope, f.Text(name)), Node: it.n, Name: name, Body: it.n.Child("body")})
			continue
		}
		var items []item
		for i, ch := range it.n.Children {
			if !ch.Named || syntax.IsComment(ch) {
				continue
			}
			if ok, _ := cfgEnabled(f, attrsBefore(it.n.Children, i), c); !ok {
				continue
			}
			switch ch.Kind {
			case "function_item":
				if ch.Child("name") != nil && ch.Child("body") != nil {
					items = append(items, item{ch, it.scope})
				}
			case "mod_item", "trait_item":
				if body := ch.Child("body"); body != nil && len(it.scope) < model.MaxScope {
					items = append(items, item{body, appendPath(it.scope, f.Text(ch.Child("name")))})
				}
			case "impl_item":
				if body := ch.Child("body"); body != nil && len(it.scope) < model.MaxScope {
					items = append(items, item{body, appendPath(it.scope, typeName(f, ch.Child("type")))})
				}
			case "declaration_list", "source_file":
				items = append(items, item{ch, it.scope})
			}
		}
		for i := len(items) - 1; i >= 0; i-- {
			stack = append(stack, items[i])
		}
	}
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
