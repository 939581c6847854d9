// Package acquires defines an analyzer that reports nothing: it finds,
// for every function of a package, which of the locks that invariants
// follow (lock_order's, never_acquires') it takes, itself or through the
// functions it calls, where, and by which call path; and the first call
// it makes that cannot be followed. Functions of other packages are known
// through its Takes facts.
package acquires

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"sort"
	"sync"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Rule is implemented by the rules whose verdict asks which locks a
// function takes: the locks they name are followed.
type Rule interface {
	invariants.Rule
	// FollowedLocks returns the locks the rule asks about.
	FollowedLocks() []invariants.Name
	// FollowsUnresolved says whether the rule asks for the calls that
	// cannot be followed, too.
	FollowsUnresolved() bool
}

// For returns the acquires analyzer of one configuration; every analyzer
// of a suite built on conf shares the value, so that a package's
// acquisitions are found once.
func For(conf *analysis.Analyzer) *analysis.Analyzer {
	if a, ok := byConf.Load(conf); ok {
		return a.(*analysis.Analyzer)
	}
	a := &analysis.Analyzer{
		Name:       "acquires",
		Doc:        "acquires: find the followed locks each function takes\n\nThe analyzer reports nothing; the lock_order and never_acquires analyzers read its result and its Takes facts.",
		URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/golang/acquires",
		Requires:   []*analysis.Analyzer{conf, inspect.Analyzer, resolve.Analyzer, live.For(conf)},
		ResultType: reflect.TypeFor[*Info](),
		FactTypes:  []analysis.Fact{new(Takes)},
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, pass.ResultOf[conf].(*guardconf.Config).Set, pass.ResultOf[live.For(conf)].(*live.Info)), nil
		},
	}
	actual, _ := byConf.LoadOrStore(conf, a)
	return actual.(*analysis.Analyzer)
}

// byConf holds the acquires analyzer of each configuration analyzer.
var byConf sync.Map

// Info is the analyzer's result for one package. Several analyzers read it
// at once (lock_order and never_acquires), so what it computes on demand
// (imported facts, interface implementations) is guarded by mu.
type Info struct {
	mu   sync.Mutex
	pass *analysis.Pass
	live *live.Info
	res  *locks.Resolver
	// followed are the locks the invariants follow, by canonical name,
	// each with its variable or field as this package resolves it (nil
	// when the package cannot name it, and so cannot take it itself).
	followed map[string]*types.Var
	// unresolved says whether calls that cannot be followed are looked
	// for (some invariant asks).
	unresolved bool
	units      []*calls.Unit
	byFunc     map[*types.Func]*Takes
	facts      *calls.Facts[Takes, *Takes]
	impls      map[*types.Func][]*types.Func
	sorted     []string // keys, once sorted
}

func run(pass *analysis.Pass, set *invariants.Set, li *live.Info) *Info {
	in := &Info{
		pass:     pass,
		live:     li,
		res:      &locks.Resolver{Info: pass.TypesInfo, Live: li},
		followed: map[string]*types.Var{},
		byFunc:   map[*types.Func]*Takes{},
		facts:    calls.NewFacts[Takes](pass),
	}
	scope := resolve.Of(pass)
	homes := map[string]bool{} // the followed locks' packages
	for _, inv := range set.Invariants {
		r, ok := inv.Rule.(Rule)
		if !ok || inv.Lang != invariants.LangGo {
			continue
		}
		in.unresolved = in.unresolved || r.FollowsUnresolved()
		for _, n := range r.FollowedLocks() {
			homes[n.Pkg] = true
			v, _ := scope.Var(n)
			if in.followed[n.String()] == nil {
				in.followed[n.String()] = v
			}
		}
	}
	if len(in.followed) == 0 || !sees(pass.Pkg, homes, map[*types.Package]bool{}) {
		// A package that cannot name a followed lock's package cannot
		// take the lock but through values it is handed, which the
		// callers that hand them answer for: it is not followed, under
		// go vet as under drivers that load it from export data.
		in.followed = map[string]*types.Var{}
		return in
	}
	in.units = calls.Units(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector), pass.TypesInfo)
	for _, u := range in.units {
		in.byFunc[u.Func] = &Takes{}
	}
	in.keys() // sorted once, before anyone reads them
	calls.Fixpoint(in.units, func(*calls.Unit) bool { return true }, func(u *calls.Unit) bool {
		return in.scan(in.live.Func(u.Decl), rule.FuncName(u.Func), in.byFunc[u.Func])
	})
	for _, u := range in.units {
		if t := in.byFunc[u.Func]; !t.empty() {
			pass.ExportObjectFact(u.Func, t)
		}
	}
	return in
}

// Of returns what calling fn takes: for a function of this package the
// summary found, for one of another package its fact. It returns nil for
// a function that takes none of the followed locks and makes no call
// that cannot be followed, as far as anyone knows.
func (in *Info) Of(fn *types.Func) *Takes {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.ofLocked(fn)
}

// ofLocked implements Of; in.mu is held, or the analysis is still running.
func (in *Info) ofLocked(fn *types.Func) *Takes {
	if t, ok := in.byFunc[fn]; ok {
		return t
	}
	return in.facts.Of(fn)
}

// Body returns what running a body takes: a function literal a rule
// targets, or a declaration.
func (in *Info) Body(b *live.Body, name string) *Takes {
	in.mu.Lock()
	defer in.mu.Unlock()
	t := &Takes{}
	in.scan(b, name, t)
	return t
}

// Lock returns the followed lock that a call locks or unlocks, and how.
func (in *Info) Lock(call *ast.CallExpr) (string, locks.Op) {
	op, ref := in.res.Op(call)
	if op == locks.None {
		return "", locks.None
	}
	for name, v := range in.followed {
		if is, _ := ref.Is(v); v != nil && is {
			return name, op
		}
	}
	return "", locks.None
}

// Resolver is the package's lock resolver.
func (in *Info) Resolver() *locks.Resolver { return in.res }

// scan adds to t what the body takes, each acquisition with its path
// starting at name, and reports whether t changed.
func (in *Info) scan(b *live.Body, name string, t *Takes) bool {
	changed := false
	for _, ev := range in.events(b) {
		changed = in.apply(ev, name, t) || changed
	}
	return changed
}

// event is one call of a body that may take a followed lock.
type event struct {
	call   *ast.CallExpr
	callee *types.Func
	// maybe: the call is in a literal handed to a function that may run
	// it; released are the followed locks the body has given up since its
	// entry, on every path, when the call runs (bit i: keys()[i]).
	maybe    bool
	released uint64
}

// events lists the calls of a body that count: those that run when the
// body runs, in its control flow (its deferred calls at its returns),
// and those in literals handed to functions that may call them. Code a go
// statement starts runs on another goroutine, and a literal that is
// stored runs where it is called: neither is the body's.
func (in *Info) events(b *live.Body) []event {
	if b == nil {
		return nil
	}
	keys := in.keys()
	bit := func(call *ast.CallExpr) (uint64, locks.Op) {
		lock, op := in.Lock(call)
		for i, k := range keys {
			if k == lock && i < 64 {
				return 1 << i, op
			}
		}
		return 0, op
	}
	var out []event
	a := &live.Analysis[uint64]{
		Entry: 0,
		Meet:  func(x, y uint64) uint64 { return x & y },
		Effect: func(s uint64, e *live.Effect) uint64 {
			if e.Deferred || e.Call == nil {
				return s
			}
			switch m, op := bit(e.Call); op {
			case locks.Unlock, locks.RUnlock:
				if !e.Cond {
					s |= m
				}
			case locks.Lock, locks.RLock:
				s &^= m
			}
			return s
		},
	}
	visit := func(s uint64, e *live.Effect) {
		if e.Call != nil && e.Lit == nil {
			out = append(out, event{call: e.Call, callee: e.Callee, released: s})
		}
	}
	flow := a.Visit(b, live.Visitor[uint64]{Effect: func(s uint64, _ *live.Step, e *live.Effect) {
		if !e.Deferred {
			visit(s, e)
		}
	}})
	a.AtReturn(b, flow, visit)
	for _, o := range b.Calls {
		if call, ok := o.Node.(*ast.CallExpr); ok && o.Dead != "" && b.Passed(o.Node.Pos()) {
			out = append(out, event{call: call, callee: o.Callee, maybe: true})
		}
	}
	return out
}

// apply adds to t what one call takes, and reports whether t changed.
func (in *Info) apply(ev event, name string, t *Takes) bool {
	released := in.names(ev.released)
	site := siteOf(in.pass.Fset.Position(ev.call.Pos()))
	switch lock, op := in.Lock(ev.call); op {
	case locks.Lock, locks.RLock:
		return t.add(Take{Lock: lock, Site: site, Path: []string{name}, Maybe: ev.maybe, Released: released})
	case locks.None:
	default:
		return false
	}
	changed := false
	callees, what := in.callees(ev.call, ev.callee)
	if what != "" && in.unresolved && t.Unresolved == nil {
		t.Unresolved = &Call{What: what, Site: site, Path: []string{name}}
		changed = true
	}
	for _, c := range callees {
		if from := in.ofLocked(c); from != nil {
			changed = t.merge(from, name, ev.maybe, released) || changed
		}
	}
	return changed
}

// keys returns the followed locks' names, sorted: bit i of a set of them
// is keys()[i].
func (in *Info) keys() []string {
	if in.sorted == nil {
		in.sorted = make([]string, 0, len(in.followed))
		for k := range in.followed {
			in.sorted = append(in.sorted, k)
		}
		sort.Strings(in.sorted)
	}
	return in.sorted
}

// names returns the locks of a set.
func (in *Info) names(set uint64) []string {
	var out []string
	for i, k := range in.keys() {
		if i < 64 && set&(1<<i) != 0 {
			out = append(out, k)
		}
	}
	return out
}

// callees returns the functions a call may call, or what the call is
// when it cannot be followed. A call of an interface method whose name
// is not exported calls one of the package's methods of that name: no
// other package can implement it.
func (in *Info) callees(call *ast.CallExpr, callee *types.Func) ([]*types.Func, string) {
	info := in.pass.TypesInfo
	if callee == nil {
		fun := ast.Unparen(call.Fun)
		if tv, ok := info.Types[fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return nil, "" // a conversion or a builtin
		}
		return nil, "a call of the function value " + types.ExprString(fun)
	}
	recv := callee.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return []*types.Func{callee}, ""
	}
	if !callee.Exported() && callee.Pkg() == in.pass.Pkg {
		return in.implementations(callee), ""
	}
	return nil, fmt.Sprintf("a call of the interface method %s", rule.FuncName(callee))
}

// implementations returns the package's methods that implement an
// interface method of the package.
func (in *Info) implementations(m *types.Func) []*types.Func {
	if in.impls == nil {
		in.impls = map[*types.Func][]*types.Func{}
	}
	if got, ok := in.impls[m]; ok {
		return got
	}
	iface, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
	var out []*types.Func
	scope := in.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || iface == nil || types.IsInterface(tn.Type()) {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if !types.Implements(ptr, iface) {
			continue
		}
		if obj, _, _ := types.LookupFieldOrMethod(ptr, true, in.pass.Pkg, m.Name()); obj != nil {
			if fn, ok := obj.(*types.Func); ok {
				out = append(out, fn.Origin())
			}
		}
	}
	in.impls[m] = out
	return out
}

// pathFrom puts a caller in front of a path.
func pathFrom(p []string, name string) []string { return calls.Path(p).From(name) }

// First returns the first call of a body, in source order, that takes
// lock, itself or through the functions it calls (an acquisition that
// only may run counts), with the acquisition, its path starting at name.
// It returns nil when the body does not take the lock.
func (in *Info) First(b *live.Body, name, lock string) (ast.Node, *Take) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, ev := range in.byPos(b) {
		t := &Takes{}
		in.apply(ev, name, t)
		if k := t.Take(lock, true); k != nil {
			return ev.call, k
		}
	}
	return nil, nil
}

// FirstUnresolved returns the first call of a body, in source order, that
// cannot be followed, or through which one is made, with that call, its
// path starting at name; nil when there is none.
func (in *Info) FirstUnresolved(b *live.Body, name string) (ast.Node, *Call) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, ev := range in.byPos(b) {
		t := &Takes{}
		in.apply(ev, name, t)
		if t.Unresolved != nil {
			return ev.call, t.Unresolved
		}
	}
	return nil, nil
}

// byPos returns the events of a body in source order.
func (in *Info) byPos(b *live.Body) []event {
	evs := in.events(b)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].call.Pos() < evs[j].call.Pos() })
	return evs
}

// sees reports whether p is one of the packages, or imports one,
// transitively.
func sees(p *types.Package, pkgs map[string]bool, seen map[*types.Package]bool) bool {
	if pkgs[p.Path()] {
		return true
	}
	if seen[p] {
		return false
	}
	seen[p] = true
	for _, imp := range p.Imports() {
		if sees(imp, pkgs, seen) {
			return true
		}
	}
	return false
}
