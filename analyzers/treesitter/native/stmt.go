package native

import (
	"fmt"
	"slices"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Ops keeps the reverts the dialect can write, in their order: C has no
// lambdas, so no uncalled-closure; only Rust has `let _ =`.
func (d Dialect) Ops(ops []string) []string {
	return slices.DeleteFunc(slices.Clone(ops), func(op string) bool {
		switch op {
		case mutant.OpClosure:
			return !d.Lambdas()
		case mutant.OpLetUnderscore:
			return !d.Rust()
		case mutant.OpGuardForgotten:
			return d.lang == invariants.LangC || d.lang == invariants.LangMetal // no guard objects
		case mutant.OpUnlockDeleted, mutant.OpUnlockDeletedOnePath:
			return d.Rust() // a guard is given up by its drop, never by an unlock call
		}
		return false
	})
}

// StmtOf returns the statement of fn's body that holds n, the one a
// revert of n rewrites.
func (c *Code) StmtOf(fn *treesitter.Function, n *syntax.Node) (Stmt, bool) { return stmtOf(fn, n) }

// Text returns a statement's source.
func (s Stmt) Text(fn *treesitter.Function) string { return string(fn.File.Src[s.Start:s.End]) }

// SiteMutants applies ops to the statement of every site (a call the
// front end reports) in fn: the Go generators' statement reverts, written
// in the dialect.
func (c *Code) SiteMutants(fn *treesitter.Function, sites []*syntax.Node, ops []string) []*mutant.Mutant {
	var out []*mutant.Mutant
	for _, at := range sites {
		suffix := siteSuffix(fn, at, len(sites))
		for _, op := range ops {
			out = append(out, c.StmtMutant(fn, at, op, suffix))
		}
	}
	return out
}

// ReplaceMutant builds the revert that replaces the node at by text (a
// condition by a constant).
func (c *Code) ReplaceMutant(fn *treesitter.Function, at *syntax.Node, text, op string) *mutant.Mutant {
	e := c.NewEdits()
	e.ReplaceNode(fn.File, at, text)
	return c.Mutant(fn, op, e, "")
}

// InCondition reports whether n is (in) the condition of an if or a loop
// of fn's body.
func InCondition(fn *treesitter.Function, n *syntax.Node) bool {
	for cur := n; cur != nil && cur != fn.Func.Body; cur = cur.Parent {
		if cur.Field == "condition" {
			return true
		}
	}
	return false
}

// StmtMutant builds one revert of the statement that holds the node at.
func (c *Code) StmtMutant(fn *treesitter.Function, at *syntax.Node, op, suffix string) *mutant.Mutant {
	s, ok := stmtOf(fn, at)
	if !ok {
		return c.Void(fn, op+suffix, "the call is not inside a statement")
	}
	e := c.NewEdits()
	void := c.stmtEdit(e, fn, s, at, op)
	return c.Mutant(fn, op+suffix, e, void)
}

// stmtEdit records the edit of one statement revert, or returns why it
// cannot be made.
func (c *Code) stmtEdit(e *Edits, fn *treesitter.Function, s Stmt, at *syntax.Node, op string) string {
	d := c.Dialect()
	f := fn.File
	src := f.Src
	text := s.Text(fn)
	ind := lineIndent(src, s.Start)
	// newline ends a replacement that leaves the line open (a // comment,
	// an #endif) when code follows the statement on its line.
	newline := func(t string) string {
		if !lastOnLine(src, s.End) {
			t += "\n" + ind
		}
		return t
	}
	var repl string
	switch op {
	case mutant.OpDelete:
		repl = ""
	case mutant.OpLineComment:
		repl = newline(lineComment(text))
	case mutant.OpBlockComment:
		var why string
		if repl, why = d.BlockComment(text); why != "" {
			return why
		}
	case mutant.OpCompiledOut:
		if d.Rust() {
			repl = "#[cfg(any())]\n" + ind + text
			break
		}
		// A directive starts its own line.
		if !firstOnLine(src, s.Start) {
			repl = "\n" + ind
		}
		repl = newline(repl + "#if 0\n" + ind + text + "\n" + ind + "#endif")
	case mutant.OpIfFalse:
		repl = d.IfFalse(text)
	case mutant.OpAfterReturn:
		repl = d.Return(fn, s.Start) + "\n" + ind + text
	case mutant.OpMoved:
		def := outerDef(fn)
		defInd := lineIndent(src, def.Start)
		e.Insert(f, def.End, "\n\n"+defInd+d.Moved(text, defInd))
		repl = ""
	case mutant.OpWrongRecv:
		r := receiver(at)
		if r == nil {
			return "the call is not a method call"
		}
		e.ReplaceNode(f, r, otherRecv)
		return ""
	case mutant.OpClosure:
		repl = d.Closure(text)
	case mutant.OpString:
		repl = d.String(text)
	case mutant.OpOneBranch:
		repl = d.OneBranch(text)
	default:
		return "unknown revert " + op
	}
	e.Replace(f, s.Start, s.End, c.braced(s, repl, ind))
	return ""
}

// braced keeps a replacement one statement where the grammar wants one:
// a statement that is the body of an if, a loop or an else without braces
// (C family) gets them, so that a deleted or commented statement does
// not make the next one the body, nor an added return leave it.
func (c *Code) braced(s Stmt, repl, ind string) string {
	if c.Dialect().Rust() || s.Node.Parent == nil {
		return repl
	}
	switch s.Node.Parent.Kind {
	case "compound_statement", "case_statement", "labeled_statement", "translation_unit",
		"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		return repl
	}
	if repl == "" {
		return "{}"
	}
	return "{\n" + ind + "    " + repl + "\n" + ind + "}"
}

// PlaceAfter moves text (a statement, on a line of its own) right after
// the statement after, in the same block. A return is split so that its
// value, which may make the very call text must precede, is computed
// first: `return f();` becomes `auto guardlint_r = f(); text return
// guardlint_r;`. It returns why it cannot, or "".
func (c *Code) PlaceAfter(e *Edits, fn *treesitter.Function, after Stmt, text string) string {
	f := fn.File
	ind := lineIndent(f.Src, after.Start)
	value, isReturn := returnValue(f, after.Node)
	switch {
	case !isReturn:
		e.Insert(f, after.End, "\n"+ind+text)
	case value == nil:
		return "the statement is a return without a value"
	default:
		v := f.Text(value)
		decl := "auto " + resultName + " = " + v + ";"
		switch {
		case c.Dialect().Rust():
			decl = "let " + resultName + " = " + v + ";"
		case fn.File.Lang == "c":
			decl = "__auto_type " + resultName + " = " + v + ";"
		}
		ret := "return " + resultName + ";"
		if after.Node.Kind != "return_statement" && after.Node.Kind != "expression_statement" {
			ret = resultName // a Rust block's value
		}
		e.Replace(f, after.Start, after.End, fmt.Sprintf("%s\n%s%s\n%s%s", decl, ind, text, ind, ret))
	}
	return ""
}

// returnValue reports whether a statement returns (a return, or the value
// a Rust body ends with) and with which value.
func returnValue(f *syntax.File, n *syntax.Node) (*syntax.Node, bool) {
	switch n.Kind {
	case "return_statement": // C family
		kids := n.NamedChildren()
		if len(kids) == 0 {
			return nil, true
		}
		return kids[0], true
	case "expression_statement":
		kids := n.NamedChildren()
		if len(kids) == 1 && kids[0].Kind == "return_expression" {
			if v := kids[0].NamedChildren(); len(v) > 0 {
				return v[0], true
			}
			return nil, true
		}
		return nil, false
	case "let_declaration":
		return nil, false
	}
	if f.Lang == "rust" && n.Parent != nil && n.Parent.Kind == "block" && n.Parent.Parent != nil &&
		n.Parent.Parent.Kind == "function_item" && slices.Index(n.Parent.NamedChildren(), n) == len(n.Parent.NamedChildren())-1 {
		if n.Kind == "return_expression" {
			if v := n.NamedChildren(); len(v) > 0 {
				return v[0], true
			}
			return nil, true
		}
		return n, true // the tail expression is the function's value
	}
	return nil, false
}
