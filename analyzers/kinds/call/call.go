package call

import (
	_ "embed"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a call analyzer reading invariants from the given guardconf
// analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "call"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		callee, ok := r.ResolveFunc(inv, "callee", ruleOf(inv).To)
		if !ok {
			continue
		}
		fns := []*types.Func{callee}
		helpers, ok := r.Funcs(inv, "helper", ruleOf(inv).Via)
		if !ok || !checkHelpers(r, inv, callee, helpers) {
			continue
		}
		fns = append(fns, helpers...)
		for _, t := range r.Targets(inv) {
			check(r, inv, t, fns)
		}
	}
}

// checkHelpers verifies that each via helper makes the call on every path.
func checkHelpers(r *rule.Rule, inv *invariants.Invariant, callee *types.Func, helpers []*types.Func) bool {
	ok := true
	for i, h := range helpers {
		decl := r.Live.Decl(h)
		if decl == nil {
			r.Unverifiable(inv, ruleOf(inv).Via[i].Pos, "helper %s must be declared with a body in package %s so that its call can be checked", rule.FuncName(h), r.Pass.Pkg.Path())
			ok = false
			continue
		}
		if !callsOnEveryPath(r.Live.Func(decl), []*types.Func{callee}) {
			r.Unverifiable(inv, ruleOf(inv).Via[i].Pos, "helper %s does not call %s on every path", rule.FuncName(h), rule.FuncName(callee))
			ok = false
		}
	}
	return ok
}

// tracker tracks "a call has happened, or is deferred to run at exit".
func tracker(fns []*types.Func) *live.Analysis[bool] {
	return &live.Analysis[bool]{
		Entry: false,
		Meet:  func(a, b bool) bool { return a && b },
		Effect: func(called bool, e *live.Effect) bool {
			if e.Cond {
				return called
			}
			if e.Lit != nil { // a deferred literal: its calls run at exit
				return called || callsOnEveryPath(e.Lit, fns)
			}
			return called || (e.Callee != nil && slices.Contains(fns, e.Callee))
		},
	}
}

func callsOnEveryPath(b *live.Body, fns []*types.Func) bool {
	return live.HoldsAtEveryReturn(tracker(fns).Run(b))
}

func check(r *rule.Rule, inv *invariants.Invariant, t rule.Target, fns []*types.Func) {
	f := facts[rule.Site]{fn: rule.FuncName(t.Func), at: t.Decl.Name, want: rule.FuncName(fns[0])}
	for _, o := range t.Body.Calls {
		switch {
		case o.Is(fns...):
			f.calls = append(f.calls, rule.Occurrence{At: o.Node, Liveness: o.Liveness})
		case f.namesake == nil && o.Callee != nil && o.Callee.Name() == fns[0].Name():
			f.namesake = &namesake[rule.Site]{name: rule.FuncName(o.Callee), at: o.Node}
		}
	}
	if ruleOf(inv).EveryPath {
		for _, exit := range tracker(fns).Run(t.Body).Exits {
			if !exit.State {
				f.unreached = append(f.unreached, rule.Exit{At: rule.At(exit.Return.Pos()), End: exit.Return.Return == t.Decl.Body.Rbrace})
			}
		}
	}
	verdict(r.For(inv), f)
}
