package requires

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
)

// checker checks the requires invariants of one package.
type checker struct {
	r       *rule.Rule
	res     *locks.Resolver
	cs      []*contract
	units   []*unit // the package's function declarations with bodies, in file order
	byFunc  map[*types.Func]*unit
	facts   *calls.Facts[Needs, *Needs] // imported facts
	entries *calls.Entries
}

// unit is one function declaration of the package.
type unit struct {
	*calls.Unit
	fn    *types.Func
	decl  *ast.FuncDecl
	needs map[*contract]*need
	// unmet holds, per contract, the calls of the body made without the
	// lock the callee needs, as the last round of propagate (or, for an
	// operation, checkOps) found them.
	unmet map[*contract][]unmet
}

// need is a requirement on a function's callers.
type need struct {
	level level
	// path is the call path from the function to the operation that
	// needs the lock, both included.
	path calls.Path
}

func (n *need) from(name string) *need { return &need{level: n.level, path: n.path.From(name)} }

// unmet is a call made where the lock is held below what the callee needs.
type unmet struct {
	call   *ast.CallExpr
	callee *types.Func
	need   *need
	held   level
}

func newChecker(r *rule.Rule, cs []*contract) *checker {
	ch := &checker{
		r:       r,
		res:     &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live},
		cs:      cs,
		byFunc:  map[*types.Func]*unit{},
		facts:   calls.NewFacts[Needs](r.Pass),
		entries: calls.NewEntries(r.Pass.Pkg),
	}
	for _, cu := range calls.Units(r.Inspect, r.Pass.TypesInfo) {
		u := &unit{Unit: cu, fn: cu.Func, decl: cu.Decl, needs: map[*contract]*need{}, unmet: map[*contract][]unmet{}}
		ch.units = append(ch.units, u)
		ch.byFunc[u.fn] = u
	}
	return ch
}

func (ch *checker) run() {
	ch.annotations()
	ch.checkHelpers()
	ch.propagate()
	for _, c := range ch.cs {
		ch.checkOps(c)
	}
	ch.reportEntries()
	ch.exportFacts()
}

// needOf returns what calling fn requires of the caller under c, or nil.
// An entry point passes its requirement on like any function: it is
// reported where its callers cannot be seen, and each caller that can be
// seen must hold the lock too.
func (ch *checker) needOf(fn *types.Func, c *contract) *need {
	if c.ops[fn] {
		return &need{level: c.need, path: calls.Path{rule.FuncName(fn)}}
	}
	if u := ch.byFunc[fn]; u != nil {
		return u.needs[c]
	}
	f := ch.facts.Of(fn)
	if f == nil {
		return nil
	}
	for _, n := range f.Locks {
		if n.ID == c.inv.ID {
			return &need{level: levelOf(n.Mode), path: n.Path}
		}
	}
	return nil
}

// mentions reports whether a unit names a function that needs a lock.
func (ch *checker) mentions(u *unit) bool {
	return u.Names(func(fn *types.Func) bool {
		for _, c := range ch.cs {
			if ch.needOf(fn, c) != nil {
				return true
			}
		}
		return false
	})
}

// propagate computes, to a fixed point, which functions of the package
// call an operation (or a function that needs the lock) without holding
// the lock.
func (ch *checker) propagate() {
	calls.Fixpoint(ch.Units(), func(cu *calls.Unit) bool { return ch.mentions(ch.byFunc[cu.Func]) }, func(cu *calls.Unit) bool {
		u := ch.byFunc[cu.Func]
		changed := false
		body := ch.r.Live.Func(u.decl)
		for _, c := range ch.cs {
			if c.ops[u.fn] {
				continue // an operation's own body is checked from a held lock
			}
			var got *need
			u.unmet[c] = ch.scan(body, c, free)
			for _, m := range u.unmet[c] {
				if m.held != free {
					continue // held in the weaker mode: reported, not passed on
				}
				if got == nil || m.need.level > got.level {
					got = m.need.from(rule.FuncName(u.fn))
				}
			}
			if got != nil && (u.needs[c] == nil || got.level > u.needs[c].level) {
				u.needs[c] = got
				changed = true
			}
		}
		return changed
	})
}

// Units returns the package's units, for calls.Fixpoint.
func (ch *checker) Units() []*calls.Unit {
	out := make([]*calls.Unit, len(ch.units))
	for i, u := range ch.units {
		out[i] = u.Unit
	}
	return out
}

// scan returns the calls of a body made where the contract's lock is held
// below what the callee needs, in the order they are reached, the body's
// deferred calls last (they run at its returns).
func (ch *checker) scan(body *live.Body, c *contract, entry level) []unmet {
	var out []unmet
	check := func(l level, e *live.Effect) {
		if e.Callee == nil || e.Deferred {
			return
		}
		if n := ch.needOf(e.Callee, c); n != nil && l < n.level {
			out = append(out, unmet{call: e.Call, callee: e.Callee, need: n, held: l})
		}
	}
	a := c.analysis(ch.res, entry)
	flow := a.Visit(body, live.Visitor[level]{Effect: func(l level, _ *live.Step, e *live.Effect) { check(l, e) }})
	ch.deferred(body, flow, c, check)
	return out
}

// deferred runs the body's deferred calls at its returns, last registered
// first, from the level the returns leave, checking each call. A body
// that never returns runs none of them.
func (ch *checker) deferred(body *live.Body, flow *live.Flow[level], c *contract, check func(level, *live.Effect)) {
	c.analysis(ch.res, free).AtReturn(body, flow, check)
}
