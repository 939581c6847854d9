package requires

import (
	"go/ast"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// entry says why the callers of a unit cannot be known to hold a lock, or
// "" when they are all in view.
func (ch *checker) entry(u *unit) string { return ch.entries.Of(u.fn) }

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
	called := calls.CalledIdents(decl)
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
			if dead, _ := calls.DeadAt(outer, n.Pos()); !dead {
				goStmts = append(goStmts, n)
				ch.reportGo(u, n)
			}
		case *ast.FuncLit:
			dead, maybe := calls.DeadAt(outer, n.Body.Pos())
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
	if dead, maybe := calls.DeadAt(outer, id.Pos()); dead && !maybe {
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
				rule.FuncName(u.fn), rule.FuncName(fn), c.lockName(), c.need, n.path.String())
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
