package requires

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/locks"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/analyzers/live"
	"golang.org/x/tools/go/ast/inspector"
)

// checker checks the requires invariants of one package.
type checker struct {
	r      *rule.Rule
	res    *locks.Resolver
	cs     []*contract
	units  []*unit // the package's function declarations with bodies, in file order
	byFunc map[*types.Func]*unit
	facts  map[*types.Func]*Needs // imported facts, nil when a function has none
	ifaces map[string][]*types.TypeName
}

// unit is one function declaration of the package.
type unit struct {
	fn    *types.Func
	decl  *ast.FuncDecl
	refs  []*types.Func // every function its body names, nested literals included
	needs map[*contract]*need
	// unmet holds, per contract, the calls of the body made without the
	// lock the callee needs, as the last round of propagate (or, for an
	// operation, checkOps) found them.
	unmet map[*contract][]unmet
	// entry says why callers of the function cannot be known to hold a
	// lock ("exported function p.F"), or "" when they can: then its
	// requirement passes on to them.
	entry   string
	entryOK bool // entry is computed
}

// need is a requirement on a function's callers.
type need struct {
	level level
	// path is the call path from the function to the operation that
	// needs the lock, both included.
	path []string
}

// maxPath bounds the call paths kept in messages and facts.
const maxPath = 12

func (n *need) from(name string) *need {
	p := append([]string{name}, n.path...)
	if len(p) > maxPath {
		p = append(p[:maxPath-1:maxPath-1], "…")
	}
	return &need{level: n.level, path: p}
}

// unmet is a call made where the lock is held below what the callee needs.
type unmet struct {
	call   *ast.CallExpr
	callee *types.Func
	need   *need
	held   level
}

func newChecker(r *rule.Rule, cs []*contract) *checker {
	ch := &checker{
		r:      r,
		res:    &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live},
		cs:     cs,
		byFunc: map[*types.Func]*unit{},
		facts:  map[*types.Func]*Needs{},
	}
	for c := range r.Inspect.Root().Preorder((*ast.FuncDecl)(nil)) {
		decl := c.Node().(*ast.FuncDecl)
		fn, ok := r.Pass.TypesInfo.Defs[decl.Name].(*types.Func)
		if !ok || decl.Body == nil {
			continue
		}
		u := &unit{fn: fn, decl: decl, needs: map[*contract]*need{}, unmet: map[*contract][]unmet{}, refs: ch.refs(c)}
		ch.units = append(ch.units, u)
		ch.byFunc[fn] = u
	}
	return ch
}

// refs lists the functions a declaration names, deduplicated: the cheap test of
// whether a function can concern a contract at all.
func (ch *checker) refs(decl inspector.Cursor) []*types.Func {
	seen := map[*types.Func]bool{}
	var out []*types.Func
	for c := range decl.Preorder((*ast.Ident)(nil)) {
		if fn, ok := ch.r.Pass.TypesInfo.Uses[c.Node().(*ast.Ident)].(*types.Func); ok && !seen[fn.Origin()] {
			seen[fn.Origin()] = true
			out = append(out, fn.Origin())
		}
	}
	return out
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
		return &need{level: c.need, path: []string{rule.FuncName(fn)}}
	}
	if u := ch.byFunc[fn]; u != nil {
		return u.needs[c]
	}
	if fn.Pkg() == nil || fn.Pkg() == ch.r.Pass.Pkg {
		return nil
	}
	f, ok := ch.facts[fn]
	if !ok {
		f = new(Needs)
		if !ch.r.Pass.ImportObjectFact(fn, f) {
			f = nil
		}
		ch.facts[fn] = f
	}
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
	for _, fn := range u.refs {
		for _, c := range ch.cs {
			if ch.needOf(fn, c) != nil {
				return true
			}
		}
	}
	return false
}

// propagate computes, to a fixed point, which functions of the package
// call an operation (or a function that needs the lock) without holding
// the lock. Requirements only grow, so the iteration ends; the last round
// changes nothing, so the calls it found are final.
func (ch *checker) propagate() {
	for changed := true; changed; {
		changed = false
		for _, u := range ch.units {
			if !ch.mentions(u) {
				continue
			}
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
		}
	}
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
	l, ok := flow.AtExits(func(a, b level) level { return min(a, b) })
	if !ok {
		return
	}
	defers := body.Deferred()
	for i := len(defers) - 1; i >= 0; i-- {
		e := defers[i].Effect
		if e.Lit != nil {
			a := c.analysis(ch.res, l)
			f := a.Visit(e.Lit, live.Visitor[level]{Effect: func(l level, _ *live.Step, e *live.Effect) { check(l, e) }})
			if at, ok := f.AtExits(func(a, b level) level { return min(a, b) }); ok {
				l = at
			}
			continue
		}
		now := *e
		now.Deferred = false
		check(l, &now)
		l = c.analysis(ch.res, l).Effect(l, &now)
	}
}
