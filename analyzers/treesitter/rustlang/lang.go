package rustlang

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Language is the Rust front end.
type Language struct{}

// Functions implements model.Language.
func (Language) Functions(f *syntax.File, c *model.Config) []*model.Func { return functions(f, c) }

// Calls implements model.Language.
func (Language) Calls(f *syntax.File, fn *model.Func, c *model.Config) []model.Call {
	w := newWalker(f, fn.Body, c)
	w.block(fn.Body, core.Liveness{})
	return w.calls
}

// Hold implements model.Language.
func (Language) Hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold {
	return hold(f, fn, c)
}

// Pattern implements model.Language: the pattern is parsed as an
// expression statement inside a function.
func (Language) Pattern(src string) ([]string, error) {
	f, err := syntax.Parse("rust", "pattern", []byte("fn guardlint_pattern() {\n"+src+";\n}\n"))
	if err != nil {
		return nil, err
	}
	if bad := syntax.FirstBad(f.Root); bad != nil {
		return nil, fmt.Errorf("pattern %q does not parse as rust", src)
	}
	fns := functions(f, &model.Config{})
	if len(fns) != 1 {
		return nil, fmt.Errorf("pattern %q does not parse as one rust expression", src)
	}
	stmts := fns[0].Body.NamedChildren()
	if len(stmts) != 1 || stmts[0].Kind != "expression_statement" {
		return nil, fmt.Errorf("pattern %q is not one rust expression", src)
	}
	toks := f.Tokens(stmts[0])
	return toks[:len(toks)-1], nil
}

// Writes implements model.Language.
func (Language) Writes(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Write {
	return writes(f, fn, typ, field, c)
}
