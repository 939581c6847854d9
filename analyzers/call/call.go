package call

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

// New returns a call analyzer reading invariants from the given guardconf
// analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(invariants.KindCall, docs.Extract(doc, "call"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		callee, err := r.Func(inv.Call.To)
		if err != nil {
			r.Unverifiable(inv, inv.Call.To.Pos, "callee %s does not resolve from package %s: %v", inv.Call.To.Short(), r.Pass.Pkg.Path(), err)
			continue
		}
		fns := []*types.Func{callee}
		helpers, ok := r.Funcs(inv, "helper", inv.Call.Via)
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
			r.Unverifiable(inv, inv.Call.Via[i].Pos, "helper %s must be declared with a body in package %s so that its call can be checked", rule.FuncName(h), r.Pass.Pkg.Path())
			ok = false
			continue
		}
		if !callsOnEveryPath(r.Live.Func(decl), []*types.Func{callee}) {
			r.Unverifiable(inv, inv.Call.Via[i].Pos, "helper %s does not call %s on every path", rule.FuncName(h), rule.FuncName(callee))
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
			return called || isOneOf(e.Callee, fns)
		},
	}
}

func callsOnEveryPath(b *live.Body, fns []*types.Func) bool {
	return live.HoldsAtEveryReturn(tracker(fns).Run(b))
}

func check(r *rule.Rule, inv *invariants.Invariant, t rule.Target, fns []*types.Func) {
	present := false
	t.Body.Walk(func(_ *live.Step, e *live.Effect) {
		if isOneOf(e.Callee, fns) {
			present = true
		}
	})
	if !present {
		reportMissing(r, inv, t, fns)
		return
	}
	if !inv.Call.EveryPath {
		return
	}
	for _, exit := range tracker(fns).Run(t.Body).Exits {
		if !exit.State {
			r.Report(inv, rule.At(exit.Return.Pos()), "%s must call %s on every path, but this return is reached without the call",
				rule.FuncName(t.Func), rule.FuncName(fns[0]))
			return
		}
	}
}

// reportMissing reports a target with no live call, where the reader can
// see best what happened: at a dead copy of the call, or at the target.
func reportMissing(r *rule.Rule, inv *invariants.Invariant, t rule.Target, fns []*types.Func) {
	want := rule.FuncName(fns[0])
	for _, o := range t.Body.Calls {
		if o.Dead != "" && o.Is(fns...) {
			r.Report(inv, o.Node, "%s must call %s; this call does not count: it is %s", rule.FuncName(t.Func), want, o.Dead)
			return
		}
	}
	for _, o := range t.Body.Calls {
		if o.Callee != nil && o.Callee.Name() == fns[0].Name() && !o.Is(fns...) {
			r.Report(inv, t.Decl.Name, "%s must call %s; the call of %s at line %d has the same name but is another function",
				rule.FuncName(t.Func), want, rule.FuncName(o.Callee), r.Pass.Fset.Position(o.Node.Pos()).Line)
			return
		}
	}
	r.Report(inv, t.Decl.Name, "%s must call %s, and contains no live call of it", rule.FuncName(t.Func), want)
}

func isOneOf(fn *types.Func, fns []*types.Func) bool {
	if fn == nil {
		return false
	}
	for _, f := range fns {
		if f == fn {
			return true
		}
	}
	return false
}
