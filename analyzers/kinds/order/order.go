package order

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns an order analyzer reading invariants from the given
// guardconf analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "order"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		first, ok1 := r.ResolveFunc(inv, "first", ruleOf(inv).First)
		then, ok2 := r.ResolveFunc(inv, "then", ruleOf(inv).Then)
		if !ok1 || !ok2 {
			continue
		}
		for _, t := range r.Targets(inv) {
			check(r, inv, t, first, then)
		}
	}
}

func check(r *rule.Rule, inv *invariants.Invariant, t rule.Target, first, second *types.Func) {
	a := &live.Analysis[bool]{
		Entry: false,
		Meet:  func(a, b bool) bool { return a && b },
		Effect: func(done bool, e *live.Effect) bool {
			return done || (!e.Cond && !e.Deferred && e.Callee == first)
		},
	}
	var thens []then[rule.Site]
	a.Visit(t.Body, live.Visitor[bool]{
		Effect: func(done bool, _ *live.Step, e *live.Effect) {
			if e.Callee == second && !e.Deferred {
				thens = append(thens, then[rule.Site]{at: e.Call, preceded: done})
			}
		},
	})
	verdict[rule.Site](r.For(inv), rule.FuncName(t.Func), t.Decl.Name, rule.FuncName(first), rule.FuncName(second), thens, words{})
}
