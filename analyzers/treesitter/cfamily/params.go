package cfamily

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Params implements model.Language: the tokens of each parameter's type,
// as written, without the parameter's name and default value; `(void)` is
// no parameter.
func (l Language) Params(f *syntax.File, fn *model.Func) [][]string {
	d := fn.Node.Child("declarator")
	for d != nil && d.Kind != "function_declarator" {
		d = d.Child("declarator")
	}
	return paramTypes(f, d.Child("parameters"))
}

// ParamPattern implements model.Language: a parameter list written after
// a target's name (`(const Stream&, int)`), read as the parameters of a
// declaration.
func (l Language) ParamPattern(src string) ([][]string, error) {
	f, err := syntax.Parse(l.Lang, "params", []byte("void guardlint_params"+src+";\n"))
	if err != nil {
		return nil, err
	}
	if bad := syntax.FirstBad(f.Root); bad != nil {
		return nil, fmt.Errorf("parameter list %q does not parse as %s", src, l.Lang)
	}
	decls := f.Root.NamedChildren()
	if len(decls) != 1 {
		return nil, fmt.Errorf("parameter list %q does not parse as %s", src, l.Lang)
	}
	d := decls[0].Child("declarator")
	if d == nil || d.Kind != "function_declarator" {
		return nil, fmt.Errorf("parameter list %q does not parse as %s", src, l.Lang)
	}
	return paramTypes(f, d.Child("parameters")), nil
}

// paramTypes lists the types of a parameter list.
func paramTypes(f *syntax.File, list *syntax.Node) [][]string {
	out := [][]string{}
	if list == nil {
		return out
	}
	for _, p := range list.Children {
		switch {
		case p.Kind == "...":
			out = append(out, []string{"..."})
			continue
		case !p.Named || syntax.IsComment(p):
			continue
		}
		var skip []*syntax.Node
		if name := declaredName(p.Child("declarator")); name != nil && name.Kind == "identifier" {
			skip = append(skip, name)
		}
		if dv := p.Child("default_value"); dv != nil {
			skip = append(skip, dv)
			for _, c := range p.Children {
				if c.Kind == "=" {
					skip = append(skip, c)
				}
			}
		}
		out = append(out, tokensWithout(f, p, skip))
	}
	if len(out) == 1 && len(out[0]) == 1 && out[0][0] == "void" {
		return [][]string{}
	}
	return out
}

// tokensWithout returns the tokens of n outside the nodes of skip.
func tokensWithout(f *syntax.File, n *syntax.Node, skip []*syntax.Node) []string {
	var out []string
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		for _, s := range skip {
			if s == n {
				return
			}
		}
		if len(n.Children) == 0 {
			out = append(out, f.Tokens(n)...)
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}
