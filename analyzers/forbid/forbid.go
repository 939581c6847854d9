package forbid

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a forbid analyzer reading invariants from the given
// guardconf analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(invariants.KindForbid, docs.Extract(doc, "forbid"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		banned, err := r.Func(inv.Forbid.Call)
		if err != nil {
			r.Unverifiable(inv, inv.Forbid.Call.Pos, "forbidden call %s does not resolve from package %s: %v", inv.Forbid.Call.Short(), r.Pass.Pkg.Path(), err)
			continue
		}
		for _, t := range r.Targets(inv) {
			for _, o := range t.Body.Calls {
				if !o.Is(banned) || (o.Dead != "" && !o.Maybe) {
					continue
				}
				msg := "%s must not call %s"
				args := []any{rule.FuncName(t.Func), rule.FuncName(banned)}
				if o.Dead != "" {
					msg += ", and this call might run: it is %s"
					args = append(args, o.Dead)
				}
				r.Report(inv, o.Node, msg, args...)
			}
		}
	}
}
