package excludes

import (
	"go/ast"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/ast/inspector"
)

// checker checks the excludes invariants of one package.
type checker struct {
	r      *rule.Rule
	res    *locks.Resolver
	cs     []*contract
	units  []*calls.Unit
	byFunc map[*types.Func]*calls.Unit
	// excluded holds, per contract, the functions of the package that
	// pass the exclusion to their callers, with the path to the target.
	excluded map[*contract]map[*types.Func]calls.Path
	facts    *calls.Facts[Excluded, *Excluded]
}

func newChecker(r *rule.Rule, cs []*contract) *checker {
	ch := &checker{
		r:        r,
		res:      &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live},
		cs:       cs,
		units:    calls.Units(r.Inspect, r.Pass.TypesInfo),
		byFunc:   map[*types.Func]*calls.Unit{},
		excluded: map[*contract]map[*types.Func]calls.Path{},
		facts:    calls.NewFacts[Excluded](r.Pass),
	}
	for _, u := range ch.units {
		ch.byFunc[u.Func] = u
	}
	for _, c := range cs {
		ch.excluded[c] = map[*types.Func]calls.Path{}
	}
	return ch
}

// exclusion returns the call path from fn to a target of c when fn must
// not be called with c's lock held, else nil.
func (ch *checker) exclusion(fn *types.Func, c *contract) calls.Path {
	fn = fn.Origin()
	if c.targets[fn] {
		return calls.Path{rule.FuncName(fn)}
	}
	if p, ok := ch.excluded[c][fn]; ok {
		return p
	}
	if f := ch.facts.Of(fn); f != nil {
		for _, x := range f.Locks {
			if x.ID == c.inv.ID {
				return x.Path
			}
		}
	}
	return nil
}

// excludedAny reports whether fn must not be called with some contract's
// lock held.
func (ch *checker) excludedAny(fn *types.Func) bool {
	for _, c := range ch.cs {
		if ch.exclusion(fn, c) != nil {
			return true
		}
	}
	return false
}

func (ch *checker) run() {
	relevant := func(u *calls.Unit) bool { return u.Names(ch.excludedAny) }
	calls.Fixpoint(ch.units, relevant, func(u *calls.Unit) bool {
		changed := false
		for _, c := range ch.cs {
			if c.targets[u.Func] || ch.excluded[c][u.Func] != nil {
				continue
			}
			ch.scanDecl(u, c, func(s state, _ ast.Node, path calls.Path, _ bool) {
				if s&asCalled != 0 && ch.excluded[c][u.Func] == nil {
					ch.excluded[c][u.Func] = path.From(rule.FuncName(u.Func))
					changed = true
				}
			})
		}
		return changed
	})
	for _, u := range ch.units {
		if !relevant(u) {
			continue
		}
		for _, c := range ch.cs {
			ch.report(u, c)
		}
	}
	ch.exportFacts()
}

// onCall receives a call (or a hand-over) of an excluded function with
// the state of the lock there and the path to the target.
type onCall func(s state, at ast.Node, path calls.Path, passed bool)

// scanDecl scans a declaration: its body from its entry, then the
// function literals in it that do not run where they are written (stored,
// returned, started as goroutines), each from its own entry, their calls
// passing nothing to the declaration's callers.
func (ch *checker) scanDecl(u *calls.Unit, c *contract, f onCall) {
	body := ch.r.Live.Func(u.Decl)
	ch.scan(body, c, asCalled, f)
	decl, _ := ch.r.Inspect.Root().FindNode(u.Decl)
	for lc := range decl.Preorder((*ast.FuncLit)(nil)) {
		lit := lc.Node().(*ast.FuncLit)
		if !calls.Detached(ch.r.Live, lc, body) {
			continue
		}
		ch.scan(ch.r.Live.Lit(lit), c, asCalled, func(s state, at ast.Node, path calls.Path, passed bool) {
			if s&held != 0 {
				f(held, at, path, passed) // reported; a literal passes nothing on
			}
		})
	}
}

// scan follows the lock through a body from entry and hands every call of
// an excluded function to f, with the state before it: the body's calls
// in order, then its deferred calls at its returns. A function literal
// or an excluded function handed to a call is judged at that call, since
// the callee may run it there.
func (ch *checker) scan(body *live.Body, c *contract, entry state, f onCall) {
	a := c.analysis(ch.res, entry)
	call := func(s state, e *live.Effect) {
		if e.Callee != nil {
			if p := ch.exclusion(e.Callee, c); p != nil {
				f(s, e.Call, p, false)
			}
		}
		if e.Call == nil || e.Lit != nil || !mayRun(ch.r.Pass.TypesInfo, e.Call) {
			return
		}
		for _, arg := range e.Call.Args {
			switch arg := ast.Unparen(arg).(type) {
			case *ast.FuncLit:
				if body.Passed(arg.Body.Pos()) {
					ch.scan(ch.r.Live.Lit(arg), c, s, f)
				}
			default:
				if fn := live.FuncValue(ch.r.Pass.TypesInfo, arg); fn != nil {
					if p := ch.exclusion(fn, c); p != nil {
						f(s, arg, p, true)
					}
				}
			}
		}
	}
	flow := a.Visit(body, live.Visitor[state]{Effect: func(s state, _ *live.Step, e *live.Effect) {
		if !e.Deferred {
			call(s, e)
		}
	}})
	a.AtReturn(body, flow, call)
}

// report reports the calls of a declaration made with the lock held, and
// the excluded functions it uses as values no call is handed.
func (ch *checker) report(u *calls.Unit, c *contract) {
	name := rule.FuncName(u.Func)
	f := facts[rule.Site]{lock: c.lockName()}
	decl, _ := ch.r.Inspect.Root().FindNode(u.Decl)
	ch.scanDecl(u, c, func(s state, at ast.Node, path calls.Path, passed bool) {
		if s&held != 0 {
			f.held = append(f.held, heldCall[rule.Site]{fn: name, at: at, lockedAt: ch.lockedBefore(decl, c, at), path: path.From(name), passed: passed})
		}
	})
	f.escapes = ch.escapes(decl, c)
	verdict(ch.r.For(c.inv), f)
}

// lockedBefore returns the last call of the declaration before at that
// takes the contract's lock, or nil.
func (ch *checker) lockedBefore(decl inspector.Cursor, c *contract, at ast.Node) ast.Node {
	return calls.LastBefore(decl, at.Pos(), func(call *ast.CallExpr) bool {
		op, ref := ch.res.Op(call)
		is, _ := ref.Is(c.lock)
		return is && (op == locks.Lock || op == locks.RLock)
	})
}

// escapes returns the excluded functions the declaration names as values
// that are not handed to a call (stored, returned, assigned), in code that
// runs or may run.
func (ch *checker) escapes(decl inspector.Cursor, c *contract) []escape[rule.Site] {
	called := calls.CalledIdents(decl)
	body := ch.r.Live.Func(decl.Node().(*ast.FuncDecl))
	var out []escape[rule.Site]
	for ic := range decl.Preorder((*ast.Ident)(nil)) {
		id := ic.Node().(*ast.Ident)
		fn, ok := ch.r.Pass.TypesInfo.Uses[id].(*types.Func)
		if !ok || called[id] || handed(ch.r.Pass.TypesInfo, ic) {
			continue
		}
		if dead, maybe := calls.DeadAt(body, id.Pos()); dead && !maybe {
			continue
		}
		if p := ch.exclusion(fn, c); p != nil {
			out = append(out, escape[rule.Site]{at: id, path: p})
		}
	}
	return out
}

// handed reports whether an identifier is an argument of a call that may
// run it, alone or as the selector of one (F, pkg.F, x.m).
func handed(info *types.Info, ic inspector.Cursor) bool {
	c := ic
	if sel, ok := c.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == ic.Node() {
		c = c.Parent()
	}
	for p := c.Parent(); ; p = p.Parent() {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			call, ok := p.Node().(*ast.CallExpr)
			return ok && call.Fun != c.Node() && mayRun(info, call)
		}
		c = p
	}
}

// mayRun reports whether a call may run the functions handed to it: not a
// builtin (append stores them) nor a conversion.
func mayRun(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[ast.Unparen(call.Fun)]
	return !ok || (!tv.IsBuiltin() && !tv.IsType())
}

// exportFacts exports the exclusions of the package's functions that pass
// them to their callers, for the packages that import it.
func (ch *checker) exportFacts() {
	for _, u := range ch.units {
		var f Excluded
		for _, c := range ch.cs {
			if p := ch.excluded[c][u.Func]; p != nil {
				f.Locks = append(f.Locks, Exclusion{ID: c.inv.ID, Lock: c.lockName(), Path: p})
			}
		}
		if len(f.Locks) > 0 {
			sort.Slice(f.Locks, func(i, j int) bool { return f.Locks[i].ID < f.Locks[j].ID })
			ch.r.Pass.ExportObjectFact(u.Func, &f)
		}
	}
}
