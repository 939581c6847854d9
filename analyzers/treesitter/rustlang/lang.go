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
func (l Language) Pattern(src string) ([]string, error) {
	f, e, err := l.pattern(src)
	if err != nil {
		return nil, err
	}
	return f.Tokens(e), nil
}

// PatternShape implements model.Language.
func (l Language) PatternShape(src string) (model.Shape, error) {
	_, e, err := l.pattern(src)
	if err != nil {
		return "", err
	}
	switch e.Kind {
	case "identifier", "scoped_identifier", "field_expression", "generic_function", "self":
		return model.ShapeName, nil
	case "call_expression", "macro_invocation":
		return model.ShapeCall, nil
	case "index_expression":
		return model.ShapeSubscript, nil
	case "integer_literal", "float_literal", "string_literal", "raw_string_literal", "boolean_literal", "char_literal":
		return model.ShapeLiteral, nil
	case "assignment_expression", "compound_assignment_expr":
		return model.ShapeAssign, nil
	}
	return model.ShapeExpr, nil
}

// pattern parses a pattern and returns its expression.
func (Language) pattern(src string) (*syntax.File, *syntax.Node, error) {
	f, err := syntax.Parse("rust", "pattern", []byte("fn guardlint_pattern() {\n"+src+";\n}\n"))
	if err != nil {
		return nil, nil, err
	}
	if bad := syntax.FirstBad(f.Root); bad != nil {
		return nil, nil, fmt.Errorf("pattern %q does not parse as rust", src)
	}
	fns := functions(f, &model.Config{})
	if len(fns) != 1 {
		return nil, nil, fmt.Errorf("pattern %q does not parse as one rust expression", src)
	}
	stmts := fns[0].Body.NamedChildren()
	if len(stmts) != 1 || stmts[0].Kind != "expression_statement" || len(stmts[0].NamedChildren()) != 1 {
		return nil, nil, fmt.Errorf("pattern %q is not one rust expression", src)
	}
	return f, stmts[0].NamedChildren()[0], nil
}

// Writes implements model.Language.
func (Language) Writes(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Write {
	return writes(f, fn, typ, field, c)
}
