package ignores

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
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
		URL:      "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/golang/ignores",
		Requires: append([]*analysis.Analyzer{conf, suppress.Analyzer}, rules...),
		Run: func(pass *analysis.Pass) (any, error) {
			run(pass, pass.ResultOf[conf].(*guardconf.Config), pass.ResultOf[suppress.Analyzer].(*suppress.Result))
			return nil, nil
		},
	}
}

func run(pass *analysis.Pass, conf *guardconf.Config, sup *suppress.Result) {
	for _, p := range sup.Problems(conf.Set) {
		c := p.At
		pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: core.SuppressionID, Message: p.Message})
	}
}
