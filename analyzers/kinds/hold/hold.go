package hold

import (
	_ "embed"
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a hold analyzer reading invariants from the given guardconf
// analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "hold"), conf, run)
}

// checker checks one hold invariant.
type checker struct {
	r    *rule.Rule
	inv  *invariants.Invariant
	lock *locks.Followed
	// releasers caches which functions of the package give up the lock
	// (see releases).
	releasers map[*types.Func]releaser
}

func run(r *rule.Rule) {
	res := &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live}
	for _, inv := range r.Invariants() {
		lock, ok := r.ResolveVar(inv, "lock", ruleOf(inv).Lock)
		if !ok {
			continue
		}
		c := &checker{r: r, inv: inv, lock: &locks.Followed{Res: res, Lock: lock, Mode: ruleOf(inv).Mode}, releasers: map[*types.Func]releaser{}}
		if lock.IsField() {
			owner, err := r.Owner(ruleOf(inv).Lock)
			if err != nil {
				r.Unverifiable(inv, ruleOf(inv).Lock.Pos, "lock %s does not resolve from package %s: %v", ruleOf(inv).Lock.Short(), r.Pass.Pkg.Path(), err)
				continue
			}
			c.lock.Owner = owner.Type()
		}
		helpers, ok := r.Funcs(inv, "helper", ruleOf(inv).Via)
		if !ok {
			continue
		}
		c.lock.Helpers = helpers
		if !c.checkHelpers() {
			continue
		}
		for _, t := range r.Targets(inv) {
			c.check(t)
		}
	}
}

// analysis tracks "the lock is held" on every path.
func (c *checker) analysis(recv types.Object) *live.Analysis[bool] {
	return &live.Analysis[bool]{
		Entry: false,
		Meet:  func(a, b bool) bool { return a && b },
		Effect: func(held bool, e *live.Effect) bool {
			if e.Deferred {
				return held
			}
			switch c.lock.Change(e, recv) {
			case locks.Acquires:
				if e.Cond {
					return held
				}
				return true
			case locks.Releases:
				return false
			}
			if held && c.releases(e.Callee) {
				return false
			}
			return held
		},
	}
}

func (c *checker) checkHelpers() bool {
	ok := true
	for i, h := range c.lock.Helpers {
		decl := c.r.Live.Decl(h)
		if decl == nil {
			c.r.Unverifiable(c.inv, ruleOf(c.inv).Via[i].Pos, "helper %s must be declared with a body in package %s so that its locking can be checked", rule.FuncName(h), c.r.Pass.Pkg.Path())
			ok = false
			continue
		}
		helpers := c.lock.Helpers
		c.lock.Helpers = nil // a helper must take the lock itself
		f := c.analysis(locks.Receiver(c.r.Pass.TypesInfo, decl)).Run(c.r.Live.Func(decl))
		c.lock.Helpers = helpers
		if !live.HoldsAtEveryReturn(f) {
			c.r.Unverifiable(c.inv, ruleOf(c.inv).Via[i].Pos, "helper %s does not acquire %s on every path", rule.FuncName(h), ruleOf(c.inv).Lock.Short())
			ok = false
		}
	}
	return ok
}

func (c *checker) check(t rule.Target) {
	recv := locks.Receiver(c.r.Pass.TypesInfo, t.Decl)
	r := ruleOf(c.inv)
	f := facts[rule.Site]{fn: rule.FuncName(t.Func), at: t.Decl.Name, lock: r.Lock.Short(), mode: r.Mode}
	var bad ast.Node
	note := func(n ast.Node) {
		if bad == nil || n.Pos() < bad.Pos() {
			bad = n
		}
	}
	flow := c.analysis(recv).Visit(t.Body, live.Visitor[bool]{
		Step: func(held bool, s *live.Step) {
			if !held && c.lock.DoesWork(s, recv) {
				note(s.Node)
			}
		},
		Effect: func(held bool, _ *live.Step, e *live.Effect) {
			if e.Deferred {
				return
			}
			switch c.lock.Change(e, recv) {
			case locks.Acquires:
				f.acquired = true
				if held && !e.Cond && f.relocked == nil {
					f.relocked = e.Call
				}
			case locks.OtherMode:
				if f.wrongMode == nil {
					f.wrongMode = e.Call
				}
				if held && r.Mode == invariants.Shared && f.relocked == nil {
					f.relocked = e.Call // Lock under RLock
				}
			}
		},
	})
	c.atReturn(t.Body, flow, recv, &f)
	if !ruleOf(c.inv).ReturnsHeld {
		f.leaks = c.leaks(t, flow, recv)
	}
	if bad != nil {
		f.unheld = bad
	}
	verdict(c.r.For(c.inv), f)
}

// atReturn runs the body's deferred calls when it returns, last registered
// first, from the state every return leaves: a deferred lock of a lock
// still held deadlocks (`Lock(); defer Lock()`). A deferred call is judged
// as work at its defer statement, where its function value and arguments
// are evaluated (`defer nc.conn.Close()` reads nc.conn there); what it does
// when it runs at the return, after a release, is not: it works on what
// the defer statement took.
func (c *checker) atReturn(body *live.Body, flow *live.Flow[bool], recv types.Object, f *facts[rule.Site]) {
	c.analysis(recv).AtReturn(body, flow, func(held bool, e *live.Effect) {
		if held && f.relocked == nil && c.lock.Change(e, recv) == locks.Acquires {
			f.relocked = e.Call
		}
	})
}
