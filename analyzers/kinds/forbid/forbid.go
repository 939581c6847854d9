package forbid

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a forbid analyzer reading invariants from the given
// guardconf analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "forbid"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		banned, ok := r.ResolveFunc(inv, "forbidden call", ruleOf(inv).Call)
		if !ok {
			continue
		}
		for _, t := range r.Targets(inv) {
			var calls []rule.Occurrence
			for _, o := range t.Body.Calls {
				if o.Is(banned) {
					calls = append(calls, rule.Occurrence{At: o.Node, Liveness: o.Liveness})
				}
			}
			verdict(r.For(inv), rule.FuncName(t.Func), rule.FuncName(banned), calls)
		}
	}
}
