package suppress

import (
	_ "embed"
	"go/ast"
	"go/token"
	"reflect"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Analyzer collects suppression comments; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "suppress",
	Doc:        docs.Extract(doc, "suppress"),
	URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/suppress",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Result is a package's suppressions.
type Result struct {
	Set[*ast.Comment]
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				form, id, reason, ok := ParseForm(c.Text)
				if !ok {
					continue
				}
				p := pass.Fset.Position(c.Slash)
				r.Add(&Directive[*ast.Comment]{At: c, File: p.Filename, Line: p.Line, Form: form, ID: id, Reason: reason})
			}
		}
	}
	return r, nil
}

// Suppressed reports whether a finding of invariant id at pos is
// suppressed, and marks the directive used.
func (r *Result) Suppressed(fset *token.FileSet, pos token.Pos, id string) bool {
	p := fset.Position(pos)
	return r.Covers(p.Filename, p.Line, id)
}
