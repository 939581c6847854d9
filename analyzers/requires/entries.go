package requires

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/analyzers/live"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// entry says why the callers of a unit cannot be known to hold a lock, or
// "" when they are all in view.
func (ch *checker) entry(u *unit) string {
	if u.entryOK {
		return u.entry
	}
	u.entryOK = true
	fn, name := u.fn, rule.FuncName(u.fn)
	recv := fn.Signature().Recv()
	switch {
	case recv == nil && fn.Name() == "init":
		u.entry = "init, which the Go runtime calls,"
	case recv == nil && fn.Name() == "main" && fn.Pkg().Name() == "main":
		u.entry = "main"
	case recv == nil && fn.Exported():
		u.entry = "exported function " + name
	case fn.Exported():
		u.entry = "exported method " + name
	case recv != nil:
		if iface := ch.implements(fn); iface != "" {
			u.entry = fmt.Sprintf("method %s, which can be called through interface %s,", name, iface)
		}
	}
	return u.entry
}

// implements names an interface of the package or of a package it
// imports, transitively, that the method's receiver type implements with
// this method; "" when there is none.
func (ch *checker) implements(fn *types.Func) string {
	if ch.ifaces == nil {
		ch.ifaces = map[string][]*types.TypeName{}
		seen := map[*types.Package]bool{}
		var add func(p *types.Package)
		add = func(p *types.Package) {
			if seen[p] {
				return
			}
			seen[p] = true
			for _, name := range p.Scope().Names() {
				tn, ok := p.Scope().Lookup(name).(*types.TypeName)
				if !ok {
					continue
				}
				if it, ok := tn.Type().Underlying().(*types.Interface); ok {
					for m := range it.Methods() {
						ch.ifaces[m.Name()] = append(ch.ifaces[m.Name()], tn)
					}
				}
			}
			for _, imp := range p.Imports() {
				add(imp)
			}
		}
		add(ch.r.Pass.Pkg)
		errType := types.Universe.Lookup("error").(*types.TypeName)
		ch.ifaces["Error"] = append(ch.ifaces["Error"], errType)
	}
	recv := fn.Signature().Recv().Type()
	if _, ok := recv.(*types.Pointer); !ok {
		recv = types.NewPointer(recv) // *T has T's methods too
	}
	for _, tn := range ch.ifaces[fn.Name()] {
		it := tn.Type().Underlying().(*types.Interface)
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
			continue // a generic interface is implemented by instances, not checked here
		}
		if types.Implements(recv, it) {
			if tn.Pkg() == nil || tn.Pkg() == ch.r.Pass.Pkg {
				return tn.Name()
			}
			return tn.Pkg().Name() + "." + tn.Name()
		}
	}
	return ""
}

// reportEntries reports, for every contract: the entry points that need
// the lock, the calls that hold it in the weaker mode, and the function
// literals, goroutines and function values through which a function that
// needs the lock is reached without it.
func (ch *checker) reportEntries() {
	for _, u := range ch.units {
		if len(u.unmet) == 0 && !ch.mentions(u) {
			continue
		}
		name := rule.FuncName(u.fn)
		for _, c := range ch.cs {
			ms := u.unmet[c]
			ch.reportWeaker(c, name, ms)
			if c.ops[u.fn] || u.needs[c] == nil || ch.entry(u) == "" {
				continue
			}
			for _, m := range ms {
				if m.held == free {
					ch.r.Report(c.inv, m.call, "%s", unheldCall(ch.entry(u), rule.FuncName(m.callee), c.lockName(), c.need.String(), m.need.from(name).path))
					break
				}
			}
		}
		if ch.mentions(u) {
			ch.reportInside(u, ch.r.Live.Func(u.decl))
		}
	}
}

// reportWeaker reports the calls made holding the lock for reading where
// the callee needs it for writing: no caller can make up for that.
func (ch *checker) reportWeaker(c *contract, who string, ms []unmet) {
	for _, m := range ms {
		if m.held == shared && m.need.level == exclusive {
			ch.r.Report(c.inv, m.call, "%s", weakerCall(who, c.lockName(), rule.FuncName(m.callee), "RLock", "Lock", m.need.from(who).path))
		}
	}
}

// reportInside walks a declaration for function literals that do not run
// where they are written, go statements and function values, and reports
// those that reach an operation without the lock.
func (ch *checker) reportInside(u *unit, body *live.Body) {
	inline := map[ast.Node]bool{}
	markInline := func(b *live.Body) {
		b.Walk(func(_ *live.Step, e *live.Effect) {
			if e.Lit != nil {
				inline[e.Lit.Node] = true
			}
		})
	}
	markInline(body)
	decl, _ := ch.r.Inspect.Root().FindNode(u.decl)
	called := calledIdents(decl)
	// outerOf is the live body of the function that holds a node: the
	// innermost literal around it, or the declaration.
	outerOf := func(c inspector.Cursor) *live.Body {
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			return ch.r.Live.Lit(e.Node().(*ast.FuncLit))
		}
		return body
	}
	var goStmts []*ast.GoStmt
	decl.Inspect([]ast.Node{(*ast.GoStmt)(nil), (*ast.FuncLit)(nil), (*ast.Ident)(nil)}, func(c inspector.Cursor) bool {
		outer := outerOf(c.Parent())
		switch n := c.Node().(type) {
		case *ast.GoStmt:
			if dead, _ := deadAt(outer, n.Pos()); !dead {
				goStmts = append(goStmts, n)
				ch.reportGo(u, n)
			}
		case *ast.FuncLit:
			dead, maybe := deadAt(outer, n.Body.Pos())
			switch {
			case inline[n]:
				// Runs where it is written: its calls belong to the body
				// around it, and were checked with it.
			case !dead || !maybe:
				return false // never runs, or a bound literal never called
			default:
				lit := ch.r.Live.Lit(n)
				markInline(lit)
				ch.reportLiteral(n, lit, goStmtOf(goStmts, n))
			}
		case *ast.Ident:
			if !called[n] {
				ch.reportValue(n, outer)
			}
		}
		return true
	})
}

// reportValue reports a function that needs a lock named as a value: where
// it is called from then cannot be followed.
func (ch *checker) reportValue(id *ast.Ident, outer *live.Body) {
	fn, ok := ch.r.Pass.TypesInfo.Uses[id].(*types.Func)
	if !ok {
		return
	}
	if dead, maybe := deadAt(outer, id.Pos()); dead && !maybe {
		return
	}
	for _, c := range ch.cs {
		if n := ch.needOf(fn.Origin(), c); n != nil {
			ch.r.Report(c.inv, id, "%s", valueUse(rule.FuncName(fn), c.lockName(), c.need.String(), n.path))
		}
	}
}

// reportGo reports a go statement that starts a function needing a lock:
// a goroutine starts with no lock held.
func (ch *checker) reportGo(u *unit, g *ast.GoStmt) {
	fn := typeutil.StaticCallee(ch.r.Pass.TypesInfo, g.Call)
	if fn == nil {
		return
	}
	for _, c := range ch.cs {
		if n := ch.needOf(fn.Origin(), c); n != nil {
			ch.r.Report(c.inv, g, "goroutine started in %s runs %s without %s (%s): a goroutine starts holding no lock: %s",
				rule.FuncName(u.fn), rule.FuncName(fn), c.lockName(), c.need, pathString(n.path))
		}
	}
}

// reportLiteral reports a function literal that does not run where it is
// written and calls an operation without the lock.
func (ch *checker) reportLiteral(lit *ast.FuncLit, body *live.Body, g *ast.GoStmt) {
	for _, c := range ch.cs {
		ms := ch.scan(body, c, free)
		for _, m := range ms {
			if m.held != free {
				continue
			}
			what, at := "function literal that does not run where it is written (stored, returned or passed on)", ast.Node(m.call)
			start := "func literal"
			if g != nil {
				what, start = "goroutine", "goroutine"
			}
			ch.r.Report(c.inv, at, "%s", unheldLiteral(what, rule.FuncName(m.callee), c.lockName(), c.need.String(), m.need.from(start).path))
			break
		}
		ch.reportWeaker(c, "function literal", ms)
	}
}

// goStmtOf returns the go statement that starts lit, or nil.
func goStmtOf(gs []*ast.GoStmt, lit *ast.FuncLit) *ast.GoStmt {
	for _, g := range gs {
		if ast.Unparen(g.Call.Fun) == lit {
			return g
		}
	}
	return nil
}

// deadAt says whether pos lies in code of the body that does not run, and
// whether it may run all the same (a literal stored for later, a go
// statement). Code that certainly does not run wins over code that may.
func deadAt(b *live.Body, pos token.Pos) (dead, maybe bool) {
	maybe = true
	for _, d := range b.Dead {
		if d.Node.Pos() <= pos && pos < d.Node.End() {
			dead = true
			maybe = maybe && d.Maybe
		}
	}
	return dead, dead && maybe
}

// calledIdents returns the identifiers under a node that name the
// function of a call (F in F(x), m in x.m(), F in F[T](x)).
func calledIdents(c inspector.Cursor) map[*ast.Ident]bool {
	out := map[*ast.Ident]bool{}
	for cc := range c.Preorder((*ast.CallExpr)(nil)) {
		fun := ast.Unparen(cc.Node().(*ast.CallExpr).Fun)
		switch f := fun.(type) {
		case *ast.IndexExpr:
			fun = ast.Unparen(f.X)
		case *ast.IndexListExpr:
			fun = ast.Unparen(f.X)
		}
		switch f := fun.(type) {
		case *ast.Ident:
			out[f] = true
		case *ast.SelectorExpr:
			out[f.Sel] = true
		}
	}
	return out
}

// exportFacts exports the requirements of the package's functions that
// pass them on to their callers, for the packages that import it.
func (ch *checker) exportFacts() {
	for _, u := range ch.units {
		var f Needs
		for _, c := range ch.cs {
			n := ch.needOf(u.fn, c)
			if n == nil || (c.ops[u.fn] && !c.annotated(u.fn)) {
				continue // an operation of the invariant file resolves by name everywhere
			}
			f.Locks = append(f.Locks, Need{ID: c.inv.ID, Lock: c.lockName(), Mode: ruleOf(c.inv).Mode, Path: n.path})
		}
		if len(f.Locks) > 0 {
			sort.Slice(f.Locks, func(i, j int) bool { return f.Locks[i].ID < f.Locks[j].ID })
			ch.r.Pass.ExportObjectFact(u.fn, &f)
		}
	}
}

func (c *contract) lockName() string { return ruleOf(c.inv).Lock.Short() }
