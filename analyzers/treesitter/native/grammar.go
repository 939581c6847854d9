package native

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// The little the generators need to know about the grammars beyond the
// front end's facts: which node is a statement, what a call's receiver
// is, whether a function returns a value. The sites themselves (calls,
// guards, writes) are the front end's; these only say where a revert's
// text begins and ends.

// Stmt is a statement that a revert rewrites, as a range of its file's
// bytes: with the attributes written before it (Rust's `#[cfg(...)]`).
type Stmt struct {
	Start, End int
	Node       *syntax.Node
}

// Alone reports whether the statement is the call and its semicolon.
func (s Stmt) Alone(call *syntax.Node) bool {
	kids := s.Node.NamedChildren()
	return s.Node.Kind == "expression_statement" && len(kids) == 1 && kids[0] == call
}

// stmtOf returns the innermost statement of fn's body that holds n: the
// statement a revert of the call at n rewrites, as the Go generators
// rewrite a call's statement. ok is false when n is not inside a
// statement of the body.
func stmtOf(fn *treesitter.Function, n *syntax.Node) (Stmt, bool) {
	body := fn.Func.Body
	rust := fn.File.Lang == "rust"
	for cur := n; cur != nil && cur != body; cur = cur.Parent {
		if isStmt(cur, rust) {
			s := Stmt{Start: cur.Start, End: cur.End, Node: cur}
			if rust {
				s.Start = attrsStart(cur)
			}
			return s, true
		}
	}
	return Stmt{}, false
}

// isStmt reports whether n is a statement: in the C family a node whose
// kind says so (expression, declaration, return, if ...; not a block),
// in Rust an expression statement, a let, or an expression that is the
// value of a block.
func isStmt(n *syntax.Node, rust bool) bool {
	if rust {
		switch n.Kind {
		case "expression_statement", "let_declaration":
			return true
		}
		return n.Named && !syntax.IsComment(n) && n.Parent != nil && n.Parent.Kind == "block" && n.Kind != "attribute_item"
	}
	switch n.Kind {
	case "compound_statement":
		return false
	case "for_range_loop":
		return true
	case "declaration":
		// A declaration in a for's init or an if's condition is part of
		// that statement.
		switch n.Parent.Kind {
		case "for_statement", "condition_clause", "for_range_loop":
			return false
		}
		return true
	}
	return strings.HasSuffix(n.Kind, "_statement")
}

// attrsStart extends a Rust statement back over the attributes written
// right before it: `#[cfg(feature = "metal")] f();` is one statement to
// a revert.
func attrsStart(n *syntax.Node) int {
	start := n.Start
	if n.Parent == nil {
		return start
	}
	kids := n.Parent.Children
	for i := range kids {
		if kids[i] != n {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			switch {
			case kids[j].Kind == "attribute_item":
				start = kids[j].Start
				continue
			case syntax.IsComment(kids[j]):
				continue
			}
			break
		}
	}
	return start
}

// receiver returns the receiver of a method call (`enc` in
// `enc->retain()`, `self.encoder` in `self.encoder.retain()`), or nil
// for a call of a function or a macro.
func receiver(call *syntax.Node) *syntax.Node {
	if call.Kind != "call_expression" {
		return nil
	}
	fe := call.Child("function")
	if fe == nil || fe.Kind != "field_expression" {
		return nil
	}
	if r := fe.Child("argument"); r != nil {
		return r // C family
	}
	return fe.Child("value") // Rust
}

// returnsNothing reports whether the innermost function around offset at
// in fn returns no value, so that a bare `return;` ends it: a C or C++
// function declared void (or a constructor or destructor), a Rust fn with
// no return type. A lambda or closure may return anything, so it does
// not.
func returnsNothing(fn *treesitter.Function, at int) bool {
	n := fn.Func.Node
	inner := n
	for {
		var next *syntax.Node
		for _, ch := range n.Children {
			if ch.Start <= at && at < ch.End {
				next = ch
				break
			}
		}
		if next == nil {
			break
		}
		n = next
		switch n.Kind {
		case "lambda_expression", "closure_expression":
			inner = n
		}
	}
	switch inner.Kind {
	case "lambda_expression", "closure_expression":
		return false
	case "function_item":
		rt := inner.Child("return_type")
		return rt == nil || fn.File.Text(rt) == "()"
	}
	t := inner.Child("type")
	if t == nil {
		return true // a constructor or destructor
	}
	d := inner.Child("declarator")
	return fn.File.Text(t) == "void" && d != nil && d.Kind == "function_declarator"
}

// outerDef is the outermost node of a definition: a template's
// declaration around the function, or the function itself. A declaration
// goes before it.
func outerDef(fn *treesitter.Function) *syntax.Node {
	n := fn.Func.Node
	for n.Parent != nil && n.Parent.Kind == "template_declaration" {
		n = n.Parent
	}
	return n
}

// isPortable reports whether an expression means the same in any
// function: a literal, or a constant that names no local (nullptr, None).
func isPortable(f *syntax.File, n *syntax.Node) bool {
	switch n.Kind {
	case "null", "nullptr", "true", "false", "number_literal", "string_literal", "char_literal",
		"integer_literal", "float_literal", "boolean_literal":
		return true
	case "identifier":
		switch f.Text(n) {
		case "None", "NULL":
			return true
		}
	}
	return false
}

// leaves returns the tokens under n as nodes, leaving out comments.
func leaves(n *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	stack := []*syntax.Node{n}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if syntax.IsComment(cur) {
			continue
		}
		if len(cur.Children) == 0 {
			if cur.End > cur.Start {
				out = append(out, cur)
			}
			continue
		}
		for i := len(cur.Children) - 1; i >= 0; i-- {
			stack = append(stack, cur.Children[i])
		}
	}
	return out
}

// findTokens finds toks as consecutive leaves, and returns the range of
// leaves they span: [i, j).
func findTokens(f *syntax.File, ls []*syntax.Node, toks []string) (int, int, bool) {
	for i := 0; i+len(toks) <= len(ls); i++ {
		ok := true
		for k, t := range toks {
			if f.Text(ls[i+k]) != t {
				ok = false
				break
			}
		}
		if ok && len(toks) > 0 {
			return i, i + len(toks), true
		}
	}
	return 0, 0, false
}
