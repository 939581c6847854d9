package guardedby

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a guarded_by analyzer reading invariants from the given
// guardconf analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "guarded_by"), conf, run)
}

// run reports every invariant in its field's package as one that cannot
// be verified: the Go check is not written yet, and a rule that is not
// checked must not pass.
func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		if r.Pass.Pkg.Path() == inv.Field.Pkg {
			r.Unverifiable(inv, inv.Pos, "guarded_by is not checked for Go yet")
		}
	}
}
