package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/ast/inspector"
)

// Whose lock a need asks the callers for, besides a parameter's index.
const (
	onReceiver = -1
	onPackage  = -2 // a package lock: the one lock, whatever the value
)

// checker checks the guarded_by invariants of one package.
type checker struct {
	r       *rule.Rule
	res     *locks.Resolver
	cs      []*contract
	units   []*unit
	byFunc  map[*types.Func]*unit
	facts   *calls.Facts[Needs, *Needs]
	entries *calls.Entries
	helpers map[*contract]map[*types.Func]*helper
}

// unit is one function declaration of the package.
type unit struct {
	*calls.Unit
	cur   inspector.Cursor
	body  *live.Body
	needs map[*contract]*need
	acc   map[*contract][]*access
	// roots are the bodies the declaration's code runs in: the
	// declaration's, with the literals that run in place, and each literal
	// that does not (started as a goroutine, stored, returned, passed to a
	// function that cannot be shown to call it), which runs holding
	// nothing.
	roots []*root
	fresh map[*types.Var]*freshVar
}

// root is one body that runs from its own entry.
type root struct {
	body *live.Body
	lit  *ast.FuncLit // nil: the declaration
	// owner maps each step of the body and of the literals that run
	// inside it to the declaration or literal it belongs to.
	owner map[*live.Step]ast.Node
	// within: the literals that run inside this root, itself included.
	within map[*ast.FuncLit]bool
}

// need is a requirement on a function's callers.
type need struct {
	level level
	param int
	path  calls.Path
	what  string // "reads (*p.T).f"
}

// freshVar is a local variable that holds a value the function
// allocated: until escape, no other code can see it.
type freshVar struct {
	root   *root
	escape token.Pos // its first use other than selecting a field; NoPos: none
}

func newChecker(r *rule.Rule) *checker {
	ch := &checker{
		r:       r,
		res:     &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live},
		byFunc:  map[*types.Func]*unit{},
		facts:   calls.NewFacts[Needs](r.Pass),
		entries: calls.NewEntries(r.Pass.Pkg),
	}
	return ch
}

func (ch *checker) run() {
	if len(ch.cs) == 0 {
		return
	}
	decls := map[*ast.FuncDecl]inspector.Cursor{}
	for c := range ch.r.Inspect.Root().Preorder((*ast.FuncDecl)(nil)) {
		decls[c.Node().(*ast.FuncDecl)] = c
	}
	for _, cu := range calls.Units(ch.r.Inspect, ch.r.Pass.TypesInfo) {
		u := &unit{Unit: cu, cur: decls[cu.Decl], needs: map[*contract]*need{}, acc: map[*contract][]*access{}}
		for _, c := range ch.cs {
			if !c.init[u.Func] {
				if as := ch.accesses(c, u.cur); len(as) > 0 {
					u.acc[c] = as
				}
			}
		}
		ch.units = append(ch.units, u)
		ch.byFunc[u.Func] = u
	}
	ch.findHelpers()
	ch.readOnly()
	ch.propagate()
	for _, u := range ch.units {
		if ch.relevant(u) {
			ch.report(u)
		}
	}
	ch.exportFacts()
}

// relevant reports whether a unit touches a guarded field or names a
// function that needs a lock.
func (ch *checker) relevant(u *unit) bool {
	if len(u.acc) > 0 {
		return true
	}
	return u.Names(func(fn *types.Func) bool {
		for _, c := range ch.cs {
			if ch.needOf(fn, c) != nil {
				return true
			}
		}
		return false
	})
}

// needOf returns what calling fn requires of the caller under c, or nil.
func (ch *checker) needOf(fn *types.Func, c *contract) *need {
	if u := ch.byFunc[fn]; u != nil {
		return u.needs[c]
	}
	f := ch.facts.Of(fn)
	if f == nil {
		return nil
	}
	for _, n := range f.Locks {
		if n.ID == c.inv.ID {
			return &need{level: levelOf(n.Mode), param: n.Param, path: n.Path, what: n.What}
		}
	}
	return nil
}

// prepare builds a unit's roots and fresh variables, once.
func (ch *checker) prepare(u *unit) {
	if u.body != nil {
		return
	}
	u.body = ch.r.Live.Func(u.Decl)
	u.roots = []*root{ch.newRoot(u.body, nil)}
	inline := map[*ast.FuncLit]bool{}
	for lit := range u.roots[0].within {
		inline[lit] = true
	}
	// Literals in source order: an outer one becomes a root before the
	// literals that run inside it are looked at.
	for c := range u.cur.Preorder((*ast.FuncLit)(nil)) {
		lit := c.Node().(*ast.FuncLit)
		if inline[lit] {
			continue
		}
		outer := u.body
		for e := range c.Parent().Enclosing((*ast.FuncLit)(nil)) {
			outer = ch.r.Live.Lit(e.Node().(*ast.FuncLit))
			break
		}
		if dead, maybe := calls.DeadAt(outer, lit.Body.Pos()); dead && !maybe {
			continue // never runs
		}
		rt := ch.newRoot(ch.r.Live.Lit(lit), lit)
		for l := range rt.within {
			inline[l] = true
		}
		u.roots = append(u.roots, rt)
	}
	u.fresh = ch.freshVars(u)
}

// newRoot maps the steps of a body and of the literals that run inside
// it.
func (ch *checker) newRoot(b *live.Body, lit *ast.FuncLit) *root {
	rt := &root{body: b, lit: lit, owner: map[*live.Step]ast.Node{}, within: map[*ast.FuncLit]bool{}}
	seen := map[*live.Body]bool{}
	var walk func(*live.Body)
	walk = func(b *live.Body) {
		if b == nil || seen[b] {
			return
		}
		seen[b] = true
		if l, ok := b.Node.(*ast.FuncLit); ok {
			rt.within[l] = true
		}
		for _, blk := range b.Blocks {
			for _, s := range blk.Steps {
				rt.owner[s] = b.Node
				for _, e := range s.Effects {
					walk(e.Lit)
				}
			}
		}
	}
	walk(b)
	return rt
}

// rootOf is the root an access runs in.
func (u *unit) rootOf(a *access) *root {
	if a.lit == nil {
		return u.roots[0]
	}
	for _, rt := range u.roots {
		if rt.within[a.lit] {
			return rt
		}
	}
	return nil // in a literal that never runs
}

// ownerNode is the declaration or literal a node's code belongs to.
func (u *unit) ownerNode(lit *ast.FuncLit) ast.Node {
	if lit == nil {
		return u.Decl
	}
	return lit
}

// probe is one place of a root where the lock of a value must be held:
// an access of the field, or a call of a function that needs the lock.
type probe struct {
	node   ast.Node // the access's selector, or the call
	acc    *access  // nil for a call
	callee *types.Func
	cn     *need    // the callee's need
	base   ast.Expr // the value whose lock it needs; nil for a package lock
	key    string
	needed level
	step   *live.Step
	held   level
	seen   bool
}

// what words the probe for messages and facts.
func (p *probe) what(c *contract) string {
	if p.acc != nil {
		return p.acc.verb() + " " + c.fieldName()
	}
	return p.cn.what
}

// scan returns the probes of a root with the level each finds held: the
// minimum over the times the analysis reaches it. A probe in code that
// does not run is left out.
func (ch *checker) scan(u *unit, rt *root, c *contract) []*probe {
	var ps []*probe
	for _, a := range u.acc[c] {
		if a.how == atomicOp || u.rootOf(a) != rt || (c.readOnly && !a.write) {
			continue
		}
		p := &probe{node: a.sel, acc: a, needed: a.need(c)}
		if c.onValue {
			p.base = a.sel.X
			p.key = ch.key(a.sel.X)
		}
		owner := u.ownerNode(a.lit)
		for s, o := range rt.owner {
			if o == owner && s.Node.Pos() <= a.sel.Pos() && a.sel.End() <= s.Node.End() {
				p.step = s
				break
			}
		}
		if p.step != nil {
			ps = append(ps, p)
		}
	}
	deferredProbes := map[*live.Effect]*probe{}
	for s := range rt.owner {
		for _, e := range s.Effects {
			if e.Callee == nil || e.Lit != nil {
				continue
			}
			cn := ch.needOf(e.Callee, c)
			if cn == nil {
				continue
			}
			p := &probe{node: e.Call, callee: e.Callee, cn: cn, needed: cn.level, step: s}
			if cn.param != onPackage {
				p.base = argOf(ch.r.Pass.TypesInfo, e.Call, cn.param)
				if p.base == nil {
					continue // a method expression or a variadic tail: not followed
				}
				p.key = ch.key(p.base)
			}
			if e.Deferred {
				deferredProbes[e] = p
				p.step = nil
			}
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	keys := map[string]bool{}
	for _, p := range ps {
		keys[p.key] = true
	}
	note := func(p *probe, l level) {
		if !p.seen || l < p.held {
			p.held = l
		}
		p.seen = true
	}
	for k := range keys {
		if k == "" && c.onValue {
			continue // no lock of an unknown value is known to be held
		}
		ch.visit(ch.analysis(c, k, free), rt.body, func(l level, s *live.Step) {
			for _, p := range ps {
				if p.step == s && p.key == k {
					note(p, l)
				}
			}
		}, func(l level, e *live.Effect) {
			if p := deferredProbes[e]; p != nil && p.key == k {
				note(p, l)
			}
		})
	}
	out := ps[:0]
	for _, p := range ps {
		if p.key == "" && c.onValue {
			p.seen, p.held = true, free
		}
		if p.seen {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].node.Pos() < out[j].node.Pos() })
	return out
}

// argOf is the expression a call passes for a need's parameter: the
// receiver of a method call, or an argument.
func argOf(info *types.Info, call *ast.CallExpr, param int) ast.Expr {
	if param == onReceiver {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return nil
		}
		return sel.X
	}
	if param >= 0 && param < len(call.Args) {
		if sig, ok := info.TypeOf(call.Fun).(*types.Signature); ok && sig.Variadic() && param >= sig.Params().Len()-1 {
			return nil
		}
		return call.Args[param]
	}
	return nil
}

// paramOf says which parameter of the unit a probe's value is, when it is
// exactly one (the receiver, or a parameter), so that the callers can
// hold its lock.
func (ch *checker) paramOf(u *unit, p *probe) (int, bool) {
	if p.base == nil {
		return onPackage, true
	}
	sig := u.Func.Signature()
	if recv := sig.Recv(); recv != nil && recv.Name() != "" && recv.Name() != "_" && keyOfVar(recv) == p.key {
		return onReceiver, true
	}
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		if v.Name() != "" && v.Name() != "_" && keyOfVar(v) == p.key {
			return i, true
		}
	}
	return 0, false
}

// propagate computes, to a fixed point, which functions of the package
// touch a field (or call a function that does) without the lock of a
// value their callers pass them.
func (ch *checker) propagate() {
	calls.Fixpoint(ch.calls(), func(cu *calls.Unit) bool { return ch.relevant(ch.byFunc[cu.Func]) }, func(cu *calls.Unit) bool {
		u := ch.byFunc[cu.Func]
		ch.prepare(u)
		changed := false
		for _, c := range ch.cs {
			if c.init[u.Func] {
				continue
			}
			var got *need
			for _, p := range ch.scan(u, u.roots[0], c) {
				if p.held != free || ch.isFresh(u, u.roots[0], p) {
					continue
				}
				param, ok := ch.paramOf(u, p)
				if !ok {
					continue // reported where it is
				}
				if got == nil || p.needed > got.level {
					got = ch.needFrom(u, c, p, param)
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

// needFrom is the need a probe puts on the unit's callers.
func (ch *checker) needFrom(u *unit, c *contract, p *probe, param int) *need {
	name := rule.FuncName(u.Func)
	if p.acc != nil {
		return &need{level: p.needed, param: param, path: calls.Path{name}, what: p.what(c)}
	}
	return &need{level: p.needed, param: param, path: p.cn.path.From(name), what: p.cn.what}
}

// calls returns the package's units, for calls.Fixpoint.
func (ch *checker) calls() []*calls.Unit {
	out := make([]*calls.Unit, len(ch.units))
	for i, u := range ch.units {
		out[i] = u.Unit
	}
	return out
}

// exportFacts exports the needs of the package's functions for the
// packages that import it.
func (ch *checker) exportFacts() {
	for _, u := range ch.units {
		var f Needs
		for _, c := range ch.cs {
			if n := u.needs[c]; n != nil {
				f.Locks = append(f.Locks, Need{ID: c.inv.ID, Param: n.param, Mode: modeOf(n.level), Path: n.path, What: n.what})
			}
		}
		if len(f.Locks) > 0 {
			sort.Slice(f.Locks, func(i, j int) bool { return f.Locks[i].ID < f.Locks[j].ID })
			ch.r.Pass.ExportObjectFact(u.Func, &f)
		}
	}
}

// readOnly marks the contracts whose field, unexported, is written only
// where no lock is needed (a fresh value, an init function): its reads
// race with no write, and need no lock either.
func (ch *checker) readOnly() {
	for _, c := range ch.cs {
		if c.field.Exported() || c.field.Pkg() != ch.r.Pass.Pkg {
			continue
		}
		c.readOnly = true
		for _, u := range ch.units {
			for _, a := range u.acc[c] {
				if !a.write || a.how == atomicOp {
					continue
				}
				ch.prepare(u)
				rt := u.rootOf(a)
				if rt == nil {
					continue // never runs
				}
				if !ch.isFresh(u, rt, &probe{base: a.sel.X}) {
					c.readOnly = false
				}
			}
		}
	}
}
