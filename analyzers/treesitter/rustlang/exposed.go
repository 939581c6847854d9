package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Exposed implements model.Language: a private function has its callers
// in its module and the module's children, all in its file unless the
// file declares a module whose body is another file (`mod tests;`); a pub
// function, a trait's method and an extern or no_mangle function can be
// called from elsewhere.
func (Language) Exposed(f *syntax.File, fn *model.Func) string {
	for _, c := range fn.Node.Children {
		switch {
		case c.Kind == "visibility_modifier":
			return "it is " + f.Text(c) + ", so other modules can call it"
		case c.Kind == "function_modifiers" && containsToken(f.Tokens(c), "extern"):
			return "it is extern, so foreign code can call it"
		}
	}
	var attrs []*syntax.Node
	if p := fn.Node.Parent; p != nil {
		for i, c := range p.Children {
			if c == fn.Node {
				attrs = attrsBefore(p.Children, i)
				break
			}
		}
	}
	for _, a := range attrs {
		if toks := f.Tokens(a); containsToken(toks, "no_mangle") || containsToken(toks, "export_name") {
			return "it is exported by symbol, so foreign code can call it"
		}
	}
	for p := fn.Node.Parent; p != nil; p = p.Parent {
		if p.Kind == "trait_item" || (p.Kind == "impl_item" && p.Child("trait") != nil) {
			return "it is a trait method, which callers reach through the trait"
		}
	}
	why := ""
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if why == "" && n.Kind == "mod_item" && n.Child("body") == nil {
			why = "its file declares `mod " + f.Text(n.Child("name")) + ";`, a child module in another file that can call it"
		}
		return why == "" && n.Kind != "function_item"
	})
	return why
}

// containsToken reports whether toks holds t.
func containsToken(toks []string, t string) bool {
	for _, x := range toks {
		if x == t {
			return true
		}
	}
	return false
}
