package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

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
	helpers map[*contract]map[*types.Func][]*helper
	// declCur holds the cursor of each function declaration; summaries
	// what functions do with the values they are handed (through.go).
	declCur     map[*ast.FuncDecl]inspector.Cursor
	summaries   map[paramKey]through
	summarising map[paramKey]bool
	// freshResults: whether a function returns a fresh value (fresh.go).
	freshResults map[*types.Func]bool
	// The types whose values only reader runners run (readerrun.go): the
	// calls with their literal, and the functions that make such calls.
	runOnly  map[*types.TypeName]bool
	runCalls map[*ast.CallExpr]*ast.CompositeLit
	runUnits map[*types.Func]bool
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
	loops []loop // the unit's loops, for freshVar.freshAt
	// tracked holds the paths from fresh variables to values that are
	// fresh with them (freshfield.go).
	tracked map[*types.Var][]fieldPath
	// members and vals are the unit's fresh group members and the values
	// each local variable is given (freshgroup.go); stores what it
	// writes to fields (freshfield.go).
	members map[*types.Var]bool
	vals    map[*types.Var][]ast.Expr
	stores  *fieldStores
	// runIn holds the literals passed to a locking runner, with the
	// lock argument of the call.
	runIn map[*ast.FuncLit]ast.Expr
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
	// from is the call a literal is passed to when that call runs it only
	// before it returns (sort.Slice's less, syncRunners): the literal
	// starts holding what parent holds at the call, and what it needs
	// is the parent's need. nil for the other roots.
	from   *ast.CallExpr
	parent *root
}

// top is the root whose entry a root's code runs from: itself, or for a
// literal run during a call (from), the top of the root of the call.
func (rt *root) top() *root {
	for rt.from != nil {
		rt = rt.parent
	}
	return rt
}

// need is a requirement on a function's callers.
type need struct {
	level level
	param int
	// sub is the path from the parameter to the value whose lock is
	// needed, as a key writes it (".db" for dc.db), or "".
	sub  string
	path calls.Path
	what string // "reads (*p.T).f"
}

// freshVar is a local variable that holds a value the function
// allocated: until escape, no other code can see it.
type freshVar struct {
	root *root
	// defs are the definitions of it and of the variables of its group
	// (freshgroup.go), for loops.
	defs []token.Pos
	// escapes are its uses other than selecting a field, in source order.
	escapes []token.Pos
	// returns maps the escapes that are operands of a return statement to
	// the statement's end: after it the function has ended.
	returns map[token.Pos]token.Pos
}

func newChecker(r *rule.Rule) *checker {
	ch := &checker{
		r:       r,
		res:     &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live},
		byFunc:  map[*types.Func]*unit{},
		facts:   calls.NewFacts[Needs](r.Pass),
		entries: calls.NewEntries(r.Pass.Pkg),

		declCur:     map[*ast.FuncDecl]inspector.Cursor{},
		summaries:   map[paramKey]through{},
		summarising: map[paramKey]bool{},

		freshResults: map[*types.Func]bool{},
	}
	return ch
}

func (ch *checker) run() {
	if len(ch.cs) == 0 {
		return
	}
	decls := ch.declCur
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
	ch.findRunOnly()
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
	if len(u.acc) > 0 || ch.runUnits[u.Func] {
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
			return &need{level: levelOf(n.Mode), param: n.Param, sub: n.Sub, path: n.Path, what: n.What}
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
		if call := ch.syncCall(c); call != nil {
			rt.from = call
			rt.parent = u.roots[0]
			for e := range c.Parent().Enclosing((*ast.FuncLit)(nil)) {
				rt.parent = u.rootOfLit(e.Node().(*ast.FuncLit))
				break
			}
			if rt.parent == nil {
				rt.from = nil
			}
		}
		for l := range rt.within {
			inline[l] = true
		}
		u.roots = append(u.roots, rt)
	}
	u.fresh = ch.freshVars(u)
	u.runIn = map[*ast.FuncLit]ast.Expr{}
	for c := range u.cur.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		fn, _ := ch.r.Pass.TypesInfo.Uses[calleeIdent(call)].(*types.Func)
		if fn == nil {
			continue
		}
		for j, i := range ch.lockingRunner(fn) {
			if j < len(call.Args) && i < len(call.Args) {
				if lit, ok := ast.Unparen(call.Args[j]).(*ast.FuncLit); ok {
					u.runIn[lit] = call.Args[i]
				}
			}
		}
	}
}

// calleeIdent is the identifier a call names its function by, or nil.
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// lockingRunner says of a function of the package whether it runs a
// function it is passed while holding a lock it is passed: its body
// starts with l.Lock() and defer l.Unlock() on a parameter l (a mutex, a
// pointer to one, or a sync.Locker), and calls a parameter f of function
// type (withLock(dc, func() { ... })). It maps f's index to l's.
func (ch *checker) lockingRunner(fn *types.Func) map[int]int {
	d := ch.r.Live.Decl(fn)
	if d == nil || d.Recv != nil || len(d.Body.List) < 3 {
		return nil
	}
	info := ch.r.Pass.TypesInfo
	params := fn.Signature().Params()
	index := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		for i := range params.Len() {
			if info.Uses[id] == params.At(i) {
				return i
			}
		}
		return -1
	}
	method := func(e ast.Expr, name string) int {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return -1
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != name {
			return -1
		}
		return index(sel.X)
	}
	lk, ok := d.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	l := method(lk.X, "Lock")
	un, ok := d.Body.List[1].(*ast.DeferStmt)
	if l < 0 || !ok || method(un.Call, "Unlock") != l {
		return nil
	}
	out := map[int]int{}
	for _, st := range d.Body.List[2:] {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if f := index(call.Fun); f >= 0 {
					if _, isFunc := params.At(f).Type().Underlying().(*types.Signature); isFunc {
						out[f] = l
					}
				}
			}
			return true
		})
	}
	return out
}

// underRunner reports whether a probe runs in a literal that a locking
// runner runs while holding the lock of the probe's value.
func (ch *checker) underRunner(u *unit, rt *root, c *contract, p *probe) bool {
	var lit *ast.FuncLit
	if p.acc != nil {
		lit = p.acc.lit
	} else if p.step != nil {
		lit, _ = rt.owner[p.step].(*ast.FuncLit)
	}
	arg, ok := u.runIn[lit]
	if lit == nil || !ok {
		return false
	}
	if !c.onValue {
		is, _ := ch.res.Ref(arg).Is(c.lock)
		return is
	}
	return p.key != "" && ch.lockHolder(c, arg) == p.key
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

// rootOfLit is the root a literal's code runs in, or nil.
func (u *unit) rootOfLit(lit *ast.FuncLit) *root {
	for _, rt := range u.roots {
		if rt.within[lit] {
			return rt
		}
	}
	return nil
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
	via    *types.Func // the reader runner that runs callee, or nil
	cn     *need       // the callee's need
	base   ast.Expr    // the value whose lock it needs; nil for a package lock
	sub    string      // for a call: the path from base to that value
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
	deferredProbes := map[*live.Effect][]*probe{}
	for s := range rt.owner {
		for _, e := range s.Effects {
			if e.Callee == nil || e.Lit != nil {
				continue
			}
			calls := ch.runProbes(c, e, s)
			if cn := ch.needOf(e.Callee, c); cn != nil {
				p := &probe{node: e.Call, callee: e.Callee, cn: cn, needed: cn.level, step: s}
				if cn.param != onPackage {
					p.base = argOf(ch.r.Pass.TypesInfo, e.Call, cn.param)
					if p.base != nil {
						p.key = ch.key(p.base)
					}
					if p.key != "" {
						p.key += cn.sub
					}
					p.sub = cn.sub
				}
				// A method expression or a variadic tail has no base: not
				// followed.
				if cn.param == onPackage || p.base != nil {
					calls = append(calls, p)
				}
			}
			for _, p := range calls {
				if e.Deferred {
					deferredProbes[e] = append(deferredProbes[e], p)
					p.step = nil
				}
				ps = append(ps, p)
			}
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
		ch.visit(ch.analysis(c, k, ch.entryLevel(u, rt, c, k)), rt.body, func(l level, s *live.Step) {
			for _, p := range ps {
				if p.step == s && p.key == k {
					note(p, l)
				}
			}
		}, func(l level, e *live.Effect) {
			for _, p := range deferredProbes[e] {
				if p.key == k {
					note(p, l)
				}
			}
		})
	}
	ch.nearMatch(u, rt, c, ps)
	out := ps[:0]
	for _, p := range ps {
		if p.key == "" && c.onValue {
			p.seen, p.held = true, free
		}
		if p.seen && ch.underRunner(u, rt, c, p) {
			p.held = exclusive
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

// paramOf says which parameter of the unit a probe's value is, or is
// reached from through fields (the receiver, or a parameter; sub is the
// path from it: ".db" for dc.db), so that the callers can hold its lock.
func (ch *checker) paramOf(u *unit, p *probe) (param int, sub string, ok bool) {
	if p.base == nil {
		return onPackage, "", true
	}
	of := func(v *types.Var) (string, bool) {
		if v == nil || v.Name() == "" || v.Name() == "_" || p.key == "" {
			return "", false
		}
		k := keyOfVar(v)
		if rest, ok := strings.CutPrefix(p.key, k); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return rest, true
		}
		return "", false
	}
	sig := u.Func.Signature()
	if sub, ok := of(sig.Recv()); ok {
		return onReceiver, sub, true
	}
	for i := range sig.Params().Len() {
		if sub, ok := of(sig.Params().At(i)); ok {
			return i, sub, true
		}
	}
	return 0, "", false
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
			var ps []*probe
			for _, rt := range u.roots {
				if rt.top() == u.roots[0] {
					for _, p := range ch.scan(u, rt, c) {
						if !ch.isFresh(u, rt, p) {
							ps = append(ps, p)
						}
					}
				}
			}
			for _, p := range ps {
				if p.held != free {
					continue
				}
				param, sub, ok := ch.paramOf(u, p)
				if !ok {
					continue // reported where it is
				}
				if got == nil || p.needed > got.level {
					got = ch.needFrom(u, c, p, param)
					got.sub = sub
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
				f.Locks = append(f.Locks, Need{ID: c.inv.ID, Param: n.param, Sub: n.sub, Mode: modeOf(n.level), Path: n.path, What: n.what})
			}
		}
		if len(f.Locks) > 0 {
			sort.Slice(f.Locks, func(i, j int) bool { return f.Locks[i].ID < f.Locks[j].ID })
			ch.r.Pass.ExportObjectFact(u.Func, &f)
		}
	}
}

// readOnly marks the contracts whose field, unexported, is written only
// where no lock is needed (a fresh value, an init function), and never
// handed to a call (which might write what it holds): its reads race with
// no write, and need no lock either.
func (ch *checker) readOnly() {
	for _, c := range ch.cs {
		if c.field.Exported() || c.field.Pkg() != ch.r.Pass.Pkg {
			continue
		}
		c.readOnly = true
		for _, u := range ch.units {
			for _, a := range u.acc[c] {
				if a.passed && !a.write {
					c.readOnly = false // what it holds may be written there
				}
				if !a.write || a.how == atomicOp {
					continue
				}
				ch.prepare(u)
				rt := u.rootOf(a)
				if rt == nil {
					continue // never runs
				}
				if !ch.isFresh(u, rt, &probe{base: a.sel.X, acc: a}) {
					c.readOnly = false
				}
			}
		}
	}
}
