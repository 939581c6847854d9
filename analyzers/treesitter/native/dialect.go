package native

import (
	"bytes"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// Dialect is how a language spells the reverts: the one place that knows
// that C disables code with `#if 0` and Rust with `#[cfg(any())]`, that C
// has no lambdas and only Rust has `let _ =`.
type Dialect struct {
	lang invariants.Lang
}

// DialectOf returns the dialect of a language of the tree-sitter front
// end.
func DialectOf(l invariants.Lang) Dialect { return Dialect{lang: l} }

// Rust reports whether the dialect is Rust's.
func (d Dialect) Rust() bool { return d.lang == invariants.LangRust }

// Lambdas reports whether the language has lambdas or closures: every one
// but C and the Metal Shading Language, which leaves them out of C++.
func (d Dialect) Lambdas() bool { return d.lang != invariants.LangC && d.lang != invariants.LangMetal }

// Names the mutants declare, in each language's style. The guardlint
// prefix keeps them apart from the code's own names.
const (
	condName    = "guardlint_cond"     // a condition known only at run time
	movedName   = "guardlint_moved"    // where a moved statement goes
	otherRecv   = "guardlint_other"    // another receiver
	otherMuC    = "guardlint_other_mu" // another mutex (C++)
	otherMuRust = "GUARDLINT_OTHER_MU" // another mutex (Rust)
	resultName  = "guardlint_r"        // a result computed before a return
)

// IfFalse puts statements under a constant false condition.
func (d Dialect) IfFalse(text string) string {
	switch d.lang {
	case invariants.LangRust:
		return "if false { " + text + " }"
	case invariants.LangC:
		return "if (0) { " + text + " }"
	}
	return "if (false) { " + text + " }"
}

// True is the constant true condition: a check replaced by it is gone.
func (d Dialect) True() string {
	if d.lang == invariants.LangC {
		return "1"
	}
	return "true"
}

// OneBranch puts statements under a condition that is not constant: a
// local, or in Rust a variable of the environment, that the front end
// cannot fold, so the statements may or may not run.
func (d Dialect) OneBranch(text string) string {
	switch d.lang {
	case invariants.LangRust:
		return `if std::env::var_os("GUARDLINT_COND").is_some() { ` + text + " }"
	case invariants.LangC:
		return "{ volatile int " + condName + " = 0; if (" + condName + ") { " + text + " } }"
	}
	return "{ volatile bool " + condName + " = false; if (" + condName + ") { " + text + " } }"
}

// Closure puts statements into a lambda or closure that nobody calls.
func (d Dialect) Closure(text string) string {
	if d.Rust() {
		return "let _ = || { " + text + " };"
	}
	return "[&] { " + text + " };"
}

// String turns statements into a string literal that is evaluated and
// thrown away.
func (d Dialect) String(text string) string {
	var b strings.Builder
	for _, r := range text {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	if d.Rust() {
		return `let _ = "` + b.String() + `";`
	}
	return `(void)"` + b.String() + `";`
}

// BlockComment puts statements in a block comment, or says why it cannot:
// a comment cannot hold its own end, and Rust's block comments nest.
func (d Dialect) BlockComment(text string) (string, string) {
	if strings.Contains(text, "*/") {
		return "", "the statement contains */"
	}
	if d.Rust() && strings.Contains(text, "/*") {
		return "", "the statement contains /*, and Rust's block comments nest"
	}
	return "/* " + text + " */", ""
}

// Moved is a function that nobody calls, holding statements.
func (d Dialect) Moved(text, ind string) string {
	switch d.lang {
	case invariants.LangRust:
		return "#[allow(dead_code)]\n" + ind + "fn " + movedName + "() {\n" + ind + "    " + text + "\n" + ind + "}"
	case invariants.LangC:
		return "static void " + movedName + "(void) {\n" + ind + "    " + text + "\n" + ind + "}"
	}
	return "[[maybe_unused]] static void " + movedName + "() {\n" + ind + "    " + text + "\n" + ind + "}"
}

// Return is a statement that ends the innermost function around a node
// at once: `return;` where that needs no value, else what needs none in
// the language: a throw in C++, a panic in Rust, `return 0;` in C, a
// value-initialised `return {};` in Metal.
func (d Dialect) Return(fn *treesitter.Function, at int) string {
	if returnsNothing(fn, at) {
		return "return;"
	}
	switch d.lang {
	case invariants.LangRust:
		return `panic!("reverted");`
	case invariants.LangC:
		return "return 0;"
	case invariants.LangMetal:
		return "return {};" // MSL has no exceptions
	}
	return "throw 0;"
}

// CallStmt writes a call of a pattern as a statement: `enc->release` is
// `enc->release();`, a pattern with its arguments is called as written,
// and a Rust macro named by its path (`msg_send!`) is invoked with none.
func (d Dialect) CallStmt(pattern string) string {
	p := strings.TrimSpace(pattern)
	if !strings.HasSuffix(p, ")") && !strings.HasSuffix(p, "]") && !strings.HasSuffix(p, "}") {
		p += "()" // a callee, or a macro's path: enc->release(), msg_send!()
	}
	return p + ";"
}

// lineIndent returns the white space that starts the line of off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// firstOnLine reports whether only white space precedes off on its line.
func firstOnLine(src []byte, off int) bool {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return len(bytes.TrimLeft(src[start:off], " \t")) == 0
}

// lastOnLine reports whether only white space follows off on its line.
func lastOnLine(src []byte, off int) bool {
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	return len(bytes.TrimSpace(src[off:off+end])) == 0
}

// bodyIndent is the indentation of a function's statements: that of its
// first statement on a line of its own, or its definition's and four
// spaces.
func bodyIndent(fn *treesitter.Function) string {
	src := fn.File.Src
	for _, ch := range fn.Func.Body.Children {
		if ch.Named && firstOnLine(src, ch.Start) {
			return lineIndent(src, ch.Start)
		}
	}
	return lineIndent(src, fn.Func.Node.Start) + "    "
}

// lineComment turns every line of text into a // comment.
func lineComment(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " \t")
		lines[i] = l[:len(l)-len(trimmed)] + "// " + trimmed
	}
	return strings.Join(lines, "\n")
}
