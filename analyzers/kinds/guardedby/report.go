package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/types/typeutil"
)

// report reports the findings of one unit: accesses (and calls that lead
// to one) without the lock that no caller can make up for, the first
// such access of an entry point that passes the need to callers it
// cannot see, and goroutines started on a function that needs the lock.
func (ch *checker) report(u *unit) {
	ch.prepare(u)
	name := rule.FuncName(u.Func)
	for _, c := range ch.cs {
		if c.init[u.Func] {
			continue
		}
		// One finding per entry point: the literals run during a call
		// (syncRunners) are part of its body.
		entryDone := false
		for _, rt := range u.roots {
			for _, p := range ch.scan(u, rt, c) {
				if p.held >= p.needed || ch.isFresh(u, rt, p) {
					continue
				}
				action := ch.action(c, p)
				lock := ch.lockOf(c, p.base, p.sub)
				// A finding at a call names the functions from the
				// call to the access, so a caller's finding names
				// the function that makes it.
				via := ""
				if p.cn != nil {
					via = ": " + p.cn.path.From(name).String()
				}
				if p.held == shared {
					ch.r.Report(c.inv, p.node, "%s%s", weaker(action, lock, ch.needWhat(c, p)), via)
					continue
				}
				if top := rt.top(); top.lit != nil {
					ch.r.Report(c.inv, p.node, "%s%s", detached(ch.detachedWhat(u, top), action, lock), via)
					continue
				}
				if _, _, ok := ch.paramOf(u, p); !ok {
					ch.r.Report(c.inv, p.node, "%s%s", unheld(action, lock), via)
					continue
				}
				if entry := ch.entries.Of(u.Func); entry != "" && !entryDone && !ch.runOnlyMethod(u.Func) {
					entryDone = true
					path := calls.Path{name}
					if p.cn != nil {
						path = p.cn.path.From(name)
					}
					ch.r.Report(c.inv, p.node, "%s", atEntry(entry, action, lock, path))
				}
			}
		}
		ch.reportGo(u, c, name)
	}
}

// action words what a probe does: "reads (*Raft).peers", "calls
// (*p.T).reset, which writes (*p.T).peers,".
func (ch *checker) action(c *contract, p *probe) string {
	if p.acc != nil {
		s := p.acc.verb() + " " + c.fieldName()
		if p.acc.how != "" {
			s += " (" + p.acc.how + ")"
		}
		return s
	}
	if p.via != nil {
		return callAction(rule.FuncName(p.via), "runs "+rule.FuncName(p.callee)+", which "+p.cn.what)
	}
	return callAction(rule.FuncName(p.callee), p.cn.what)
}

// needWhat says why a probe needs the lock exclusive.
func (ch *checker) needWhat(c *contract, p *probe) string {
	switch {
	case p.acc == nil:
		return "the callee"
	case p.acc.write:
		return "writing"
	}
	return "a read (reads: exclusive)"
}

// detachedWhat names a root literal for messages.
func (ch *checker) detachedWhat(u *unit, rt *root) string {
	for c := range u.cur.Preorder((*ast.GoStmt)(nil)) {
		if ast.Unparen(c.Node().(*ast.GoStmt).Call.Fun) == rt.lit {
			return "goroutine"
		}
	}
	return "function literal that does not run where it is written (stored, returned or passed on)"
}

// lockOf names the lock of a value as the code would: r.mu, or the
// package lock.
func (ch *checker) lockOf(c *contract, base ast.Expr, sub string) string {
	if !c.onValue || base == nil {
		return c.lockName()
	}
	e := ast.Unparen(base)
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if s, ok := e.(*ast.UnaryExpr); ok && s.Op == token.AND {
		e = s.X
	}
	return types.ExprString(e) + sub + "." + c.lockName()
}

// reportGo reports the go statements of a unit that start a function
// needing the lock: a goroutine starts holding none.
func (ch *checker) reportGo(u *unit, c *contract, name string) {
	for cur := range u.cur.Preorder((*ast.GoStmt)(nil)) {
		g := cur.Node().(*ast.GoStmt)
		fn := typeutil.StaticCallee(ch.r.Pass.TypesInfo, g.Call)
		if fn == nil {
			continue
		}
		n := ch.needOf(fn.Origin(), c)
		if n == nil {
			continue
		}
		if dead, maybe := calls.DeadAt(u.body, g.Pos()); dead && !maybe {
			continue
		}
		var base ast.Expr
		if n.param != onPackage {
			base = argOf(ch.r.Pass.TypesInfo, g.Call, n.param)
		}
		ch.r.Report(c.inv, g, "%s", goCall(name, rule.FuncName(fn), n.what, ch.lockOf(c, base, n.sub), n.path))
	}
}
