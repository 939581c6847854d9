package suppress

import (
	_ "embed"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Prefix starts a suppression comment.
const Prefix = "//guardlint:ignore"

// Analyzer collects suppression comments; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "suppress",
	Doc:        docs.Extract(doc, "suppress"),
	URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/suppress",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Directive is one suppression comment.
type Directive struct {
	Comment *ast.Comment
	ID      string // "" when missing
	Reason  string // "" when missing
	file    string
	line    int
}

// Result holds a package's suppressions and which of them were used.
type Result struct {
	Directives []*Directive

	mu   sync.Mutex
	used map[*Directive]bool
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{used: map[*Directive]bool{}}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rest, ok := strings.CutPrefix(c.Text, Prefix)
				if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
					continue
				}
				fields := strings.Fields(rest)
				d := &Directive{Comment: c}
				if len(fields) > 0 {
					d.ID = fields[0]
					d.Reason = strings.Join(fields[1:], " ")
				}
				p := pass.Fset.Position(c.Slash)
				d.file, d.line = p.Filename, p.Line
				r.Directives = append(r.Directives, d)
			}
		}
	}
	return r, nil
}

// Suppressed reports whether a well-formed directive for id sits on the
// line of pos or on the line above, and marks that directive used.
func (r *Result) Suppressed(fset *token.FileSet, pos token.Pos, id string) bool {
	p := fset.Position(pos)
	for _, d := range r.Directives {
		if d.ID != id || d.Reason == "" || d.file != p.Filename {
			continue
		}
		if d.line == p.Line || d.line == p.Line-1 {
			r.mu.Lock()
			r.used[d] = true
			r.mu.Unlock()
			return true
		}
	}
	return false
}

// Used reports whether a directive suppressed a finding.
func (r *Result) Used(d *Directive) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.used[d]
}
