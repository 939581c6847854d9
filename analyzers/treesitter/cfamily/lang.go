package cfamily

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Language is the front end for one of c, cpp and cuda.
type Language struct {
	Lang syntax.Lang
}

// Functions implements model.Language.
func (l Language) Functions(f *syntax.File, c *model.Config) []*model.Func { return functions(f, c) }

// Calls implements model.Language.
func (l Language) Calls(f *syntax.File, fn *model.Func, c *model.Config) []model.Call {
	w := newWalker(f, fn.Body, c)
	w.stmt(fn.Body, core.Liveness{})
	return w.calls
}

// Hold implements model.Language.
func (l Language) Hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold {
	return hold(f, fn, c)
}

// patternPrefix wraps a pattern into a function so that it parses as an
// expression statement.
const patternPrefix = "void guardlint_pattern(void) {\n"

// Pattern implements model.Language: the pattern is parsed as the
// expression of a statement, and its tokens are those of the expression.
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
	case "identifier", "qualified_identifier", "field_expression", "template_function", "this", "destructor_name":
		return model.ShapeName, nil
	case "call_expression":
		return model.ShapeCall, nil
	case "subscript_expression":
		return model.ShapeSubscript, nil
	case "number_literal", "string_literal", "char_literal", "raw_string_literal", "concatenated_string", "true", "false", "null", "nullptr":
		return model.ShapeLiteral, nil
	case "assignment_expression", "update_expression":
		return model.ShapeAssign, nil
	}
	return model.ShapeExpr, nil
}

// pattern parses a pattern and returns its expression. A pattern is
// an expression, never a declaration: `row * nb;` as a statement is the
// declaration of a pointer `nb` to a `row` (and `a < b > c;` may be one
// of a template's), so a pattern that does not read as an expression
// statement is read again as the value of a return, where the grammar
// admits expressions only.
func (l Language) pattern(src string) (*syntax.File, *syntax.Node, error) {
	f, e, err := l.patternIn(src, "", "expression_statement")
	if err == nil {
		return f, e, nil
	}
	if f2, e2, err2 := l.patternIn(src, "return ", "return_statement"); err2 == nil {
		return f2, e2, nil
	}
	return nil, nil, err
}

// patternIn parses a pattern as the one statement of a function, after
// lead, and returns its expression when the statement is of kind stmt.
func (l Language) patternIn(src, lead, stmt string) (*syntax.File, *syntax.Node, error) {
	f, err := syntax.Parse(l.Lang, "pattern", []byte(patternPrefix+lead+src+";\n}\n"))
	if err != nil {
		return nil, nil, err
	}
	if bad := syntax.FirstBad(f.Root); bad != nil {
		return nil, nil, fmt.Errorf("pattern %q does not parse as %s", src, l.Lang)
	}
	fns := functions(f, &model.Config{})
	if len(fns) != 1 {
		return nil, nil, fmt.Errorf("pattern %q does not parse as one %s expression", src, l.Lang)
	}
	stmts := fns[0].Body.NamedChildren()
	if len(stmts) != 1 || stmts[0].Kind != stmt || len(stmts[0].NamedChildren()) != 1 {
		return nil, nil, fmt.Errorf("pattern %q is not one %s expression", src, l.Lang)
	}
	return f, stmts[0].NamedChildren()[0], nil
}

// Writes implements model.Language.
func (l Language) Writes(f *syntax.File, fn *model.Func, typ, field string, c *model.Config) []model.Write {
	return writes(f, fn, typ, field, c)
}
