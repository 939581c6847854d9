package rustlang

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Params implements model.Language: the tokens of each parameter's type;
// the receiver (`&self`) is not one.
func (Language) Params(f *syntax.File, fn *model.Func) [][]string {
	out := [][]string{}
	for _, p := range fn.Node.Child("parameters").NamedChildren() {
		switch p.Kind {
		case "self_parameter", "attribute_item":
		case "parameter":
			out = append(out, f.Tokens(p.Child("type")))
		default:
			out = append(out, f.Tokens(p))
		}
	}
	return out
}

// ParamPattern implements model.Language: a list of types written after
// a target's name (`(&str, usize)`), read as the parameters of a function
// type.
func (Language) ParamPattern(src string) ([][]string, error) {
	f, err := syntax.Parse("rust", "params", []byte("type GuardlintParams = fn"+src+";\n"))
	if err != nil {
		return nil, err
	}
	items := f.Root.NamedChildren()
	if syntax.FirstBad(f.Root) != nil || len(items) != 1 || items[0].Child("type") == nil || items[0].Child("type").Kind != "function_type" {
		return nil, fmt.Errorf("parameter list %q does not parse as rust types", src)
	}
	out := [][]string{}
	for _, t := range items[0].Child("type").Child("parameters").NamedChildren() {
		out = append(out, f.Tokens(t))
	}
	return out, nil
}
