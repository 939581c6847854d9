package order

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/analyzers/live"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns an order analyzer reading invariants from the given
// guardconf analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(invariants.KindOrder, docs.Extract(doc, "order"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		first, err1 := r.Func(inv.Order.First)
		if err1 != nil {
			r.Unverifiable(inv, inv.Order.First.Pos, "first %s does not resolve from package %s: %v", inv.Order.First.Short(), r.Pass.Pkg.Path(), err1)
		}
		then, err2 := r.Func(inv.Order.Then)
		if err2 != nil {
			r.Unverifiable(inv, inv.Order.Then.Pos, "then %s does not resolve from package %s: %v", inv.Order.Then.Short(), r.Pass.Pkg.Path(), err2)
		}
		if err1 != nil || err2 != nil {
			continue
		}
		for _, t := range r.Targets(inv) {
			check(r, inv, t, first, then)
		}
	}
}

func check(r *rule.Rule, inv *invariants.Invariant, t rule.Target, first, then *types.Func) {
	a := &live.Analysis[bool]{
		Entry: false,
		Meet:  func(a, b bool) bool { return a && b },
		Effect: func(done bool, e *live.Effect) bool {
			return done || (!e.Cond && !e.Deferred && e.Callee == first)
		},
	}
	seen, reported := false, false
	a.Visit(t.Body, live.Visitor[bool]{
		Effect: func(done bool, _ *live.Step, e *live.Effect) {
			if e.Callee != then || e.Deferred {
				return
			}
			seen = true
			if done || reported {
				return
			}
			reported = true
			r.Report(inv, e.Call, "%s must call %s before this call of %s, on every path", rule.FuncName(t.Func), rule.FuncName(first), rule.FuncName(then))
		},
	})
	if !seen {
		r.Report(inv, t.Decl.Name, "%s no longer makes a live call of %s, so the order %s before %s cannot be checked",
			rule.FuncName(t.Func), rule.FuncName(then), rule.FuncName(first), rule.FuncName(then))
	}
}
