package ignores

import (
	_ "embed"
	"fmt"

	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/suppress"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns an ignores analyzer that runs after the given rule
// analyzers and reads the invariants from conf.
func New(conf *analysis.Analyzer, rules ...*analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "ignores",
		Doc:      docs.Extract(doc, "ignores"),
		URL:      "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/ignores",
		Requires: append([]*analysis.Analyzer{conf, suppress.Analyzer}, rules...),
		Run: func(pass *analysis.Pass) (any, error) {
			run(pass, pass.ResultOf[conf].(*guardconf.Config), pass.ResultOf[suppress.Analyzer].(*suppress.Result))
			return nil, nil
		},
	}
}

func run(pass *analysis.Pass, conf *guardconf.Config, sup *suppress.Result) {
	known := map[string]bool{}
	for _, inv := range conf.Set.Invariants {
		known[inv.ID] = true
	}
	for _, d := range sup.Directives {
		report := func(format string, args ...any) {
			pass.Report(analysis.Diagnostic{Pos: d.Comment.Pos(), End: d.Comment.End(), Category: "suppression", Message: "guardlint:ignore " + fmt.Sprintf(format, args...)})
		}
		switch {
		case d.ID == "":
			report("needs an invariant id and a reason: //guardlint:ignore <id> <reason>")
		case d.Reason == "":
			report("%s needs a reason after the id", d.ID)
		case !known[d.ID]:
			report("names %s, which is not a loaded invariant", d.ID)
		case !sup.Used(d):
			report("%s suppresses nothing on this line or the next", d.ID)
		}
	}
}
