package fix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// HunkClass is what a hunk of a source file changes, decided the same
// way in every language: only a code hunk can be left uncovered by
// prove --revert, and only code hunks give suggest its proposals.
type HunkClass string

// Hunk classes.
const (
	// ClassCode: the hunk adds or removes lines inside a function body.
	ClassCode HunkClass = "code"
	// ClassDeclaration: its lines are outside every function body (a
	// field, a type, a signature, a constant): what uses them is the
	// code hunk, and the compiler catches a use without its declaration.
	ClassDeclaration HunkClass = "declaration"
	// ClassInclude: its lines are #include, use, import or extern crate.
	ClassInclude HunkClass = "include"
	// ClassTest: a test file's hunk, or code under #[cfg(test)] or
	// #[test]: tests are the functional guards (prove --test).
	ClassTest HunkClass = "test"
	// ClassDocumentation: comments and blank lines only.
	ClassDocumentation HunkClass = "documentation"
)

// testDirs are the directory names whose files are test code, in every
// language: Go's testdata, the test and bench trees of Cargo and of C
// and C++ projects.
var testDirs = map[string]bool{
	"test": true, "tests": true, "testing": true, "testdata": true, "unittests": true,
	"bench": true, "benches": true, "benchmark": true, "benchmarks": true,
}

// testPath reports whether a slash path of a change is test code: a Go
// _test.go file, a file under one of testDirs, or one whose base name
// starts with test_ or ends in _test or _tests before its extension.
func testPath(p string) bool {
	if strings.HasSuffix(p, "_test.go") {
		return true
	}
	dir, base := path.Split(p)
	for _, d := range strings.Split(strings.Trim(dir, "/"), "/") {
		if testDirs[d] {
			return true
		}
	}
	base = strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test") || strings.HasSuffix(base, "_tests")
}

// classify decides the class of a hunk of a source file from the lines
// it changes: those it adds, read in src after the change (added true),
// or those it removes, read in src before it. rel is the file's slash
// path in the repository, lang its source language.
func classify(lang, rel string, src []byte, h *patch.Hunk, added bool) HunkClass {
	if testPath(rel) {
		return ClassTest
	}
	lines := map[int]bool{}
	changedLines(src, h, added, lines)
	if len(lines) == 0 {
		return ClassDocumentation
	}
	text := strings.Split(string(src), "\n")
	var code []int
	for l := range lines {
		if l-1 < len(text) && !commentOrBlank(text[l-1]) {
			code = append(code, l)
		}
	}
	if len(code) == 0 {
		return ClassDocumentation
	}
	regions := codeRegions(lang, rel, src)
	inBody, inTest, include := false, true, true
	for _, l := range code {
		r := regions.at(l)
		inBody = inBody || r == inFunction
		inTest = inTest && r == inTestCode
		include = include && includeLine(text[l-1])
	}
	switch {
	case inTest:
		return ClassTest
	case inBody:
		return ClassCode
	case include:
		return ClassInclude
	}
	return ClassDeclaration
}

// commentOrBlank reports whether a line is blank or only a line
// comment, or part of a block comment as C, C++, Go and Rust write them
// ("/*", " *", "*/").
func commentOrBlank(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")
}

// includeLine reports whether a line brings names in: #include, Rust's
// use and extern crate, Go's import (and the lines of an import block,
// which are quoted paths).
func includeLine(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"#include", "#import", "use ", "pub use ", "pub(crate) use ", "extern crate ", "import "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	// A line of a Go import block: a quoted path, perhaps named.
	f := strings.Fields(t)
	return len(f) > 0 && len(f) <= 2 && strings.HasPrefix(f[len(f)-1], `"`) && strings.HasSuffix(t, `"`)
}

type region int

const (
	outside region = iota
	inFunction
	inTestCode
)

// regions maps lines to what holds them: a function body, test code, or
// neither.
type regions struct {
	funcs, tests [][2]int
}

func (r regions) at(line int) region {
	for _, t := range r.tests {
		if line >= t[0] && line <= t[1] {
			return inTestCode
		}
	}
	for _, f := range r.funcs {
		if line >= f[0] && line <= f[1] {
			return inFunction
		}
	}
	return outside
}

// codeRegions reads the function bodies of a file, and for Rust the
// items under #[cfg(test)] or #[test]. A file that does not parse has
// none: every line of it is then a declaration's.
func codeRegions(lang, rel string, src []byte) regions {
	var out regions
	if lang == "go" {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil && f == nil {
			return out
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch x := n.(type) {
			case *ast.FuncDecl:
				body = x.Body
			case *ast.FuncLit:
				body = x.Body
			}
			if body != nil {
				out.funcs = append(out.funcs, [2]int{fset.Position(body.Lbrace).Line, fset.Position(body.Rbrace).Line})
			}
			return true
		})
		return out
	}
	// A definition behind an object-like macro (SPDLOG_INLINE) is read
	// as suggest reads it, with the macro erased: its body is code.
	file, err := syntax.Parse(syntax.Lang(lang), rel, syntax.EraseMacros(src, macrosToErase("", invariants.Lang(lang), src)))
	if err != nil {
		return out
	}
	span := func(n *syntax.Node) [2]int {
		return [2]int{file.Position(n.Start).Line, file.Position(n.End).Line}
	}
	for _, fn := range nativeLanguage(invariants.Lang(lang)).Functions(file, &model.Config{}) {
		if fn.Body != nil {
			out.funcs = append(out.funcs, span(fn.Body))
		}
	}
	if lang == string(invariants.LangRust) {
		out.tests = rustTestItems(file, span)
	}
	return out
}

// rustTestItems are the spans of the items an attribute marks as test
// code: #[cfg(test)] (a test module, most often) and #[test].
func rustTestItems(file *syntax.File, span func(*syntax.Node) [2]int) [][2]int {
	var out [][2]int
	syntax.Walk(file.Root, func(n *syntax.Node) bool {
		kids := n.Children
		for i, k := range kids {
			if k.Kind != "attribute_item" {
				continue
			}
			attr := strings.Join(strings.Fields(file.Text(k)), "")
			if attr != "#[test]" && !strings.HasPrefix(attr, "#[cfg(test)") {
				continue
			}
			// The item the attribute applies to is the next sibling that
			// is neither an attribute nor a comment.
			for _, next := range kids[i+1:] {
				if next.Kind == "attribute_item" || next.Kind == "line_comment" || next.Kind == "block_comment" {
					continue
				}
				s := span(next)
				s[0] = file.Position(k.Start).Line
				out = append(out, s)
				break
			}
		}
		return true
	})
	return out
}
