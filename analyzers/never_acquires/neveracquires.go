package neveracquires

import (
	_ "embed"
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/acquires"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/analyzers/live"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/types/typeutil"
)

// check checks one invariant in the package: its targets declared here,
// and the functions handed here to its passed_to functions.
func check(r *rule.Rule, acq *acquires.Info, inv *invariants.Invariant) {
	here := r.Pass.Pkg.Path()
	rl := ruleOf(inv)
	if _, ok := r.ResolveLock(inv, rl.Lock, rl.Lock.Pkg == here); !ok {
		return
	}
	c := &checker{r: r, acq: acq, inv: inv, lock: rl.Lock.String()}
	for _, t := range r.Targets(inv) {
		c.body(rule.FuncName(t.Func), t.Body)
	}
	runners := map[*types.Func]string{}
	for _, n := range rl.PassedTo {
		fn, err := r.Func(n)
		switch {
		case err == nil:
			runners[fn.Origin()] = rule.FuncName(fn)
		case n.Pkg == here:
			r.Unverifiable(inv, n.Pos, "passed_to %s not found in package %s: %v", n.Short(), here, err)
		}
	}
	if len(runners) > 0 {
		c.handed(runners)
	}
}

// checker checks the targets of one invariant in one package.
type checker struct {
	r    *rule.Rule
	acq  *acquires.Info
	inv  *invariants.Invariant
	lock string // the lock's canonical name
}

// body checks a target whose body the package holds.
func (c *checker) body(name string, b *live.Body) {
	f := facts{target: name, lock: ruleOf(c.inv).Lock.Short()}
	if at, k := c.acq.First(b, name, c.lock); at != nil {
		f.take = &take{at: at, path: k.Path, takenAt: k.Site.String(), maybe: k.Maybe, here: len(k.Path) == 1}
	}
	if at, u := c.acq.FirstUnresolved(b, name); at != nil {
		f.unresolved = &unresolved{at: at, what: u.What, path: u.Path, madeAt: u.Site.String()}
	}
	verdict(c.r.For(c.inv), f)
}

// handed checks every function handed, in this package, to one of the
// runners: a literal by its body, a named function by what it takes, any
// other value as one that cannot be followed.
func (c *checker) handed(runners map[*types.Func]string) {
	info := c.r.Pass.TypesInfo
	for cc := range c.r.Inspect.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cc.Node().(*ast.CallExpr)
		fn := typeutil.StaticCallee(info, call)
		if fn == nil {
			continue
		}
		runner, ok := runners[fn.Origin()]
		if !ok {
			continue
		}
		host := "a function literal"
		for d := range cc.Enclosing((*ast.FuncDecl)(nil)) {
			if obj, ok := info.Defs[d.Node().(*ast.FuncDecl).Name].(*types.Func); ok {
				host = rule.FuncName(obj)
			}
			break
		}
		for _, arg := range call.Args {
			if _, ok := types.Unalias(info.TypeOf(arg)).Underlying().(*types.Signature); !ok {
				continue
			}
			name := "the function literal handed to " + runner + " in " + host
			switch a := ast.Unparen(arg).(type) {
			case *ast.FuncLit:
				c.body(name, c.r.Live.Lit(a))
				continue
			case *ast.Ident, *ast.SelectorExpr:
				if v := live.FuncValue(info, a); v != nil {
					c.value(rule.FuncName(v), v, a)
					continue
				}
			}
			verdict(c.r.For(c.inv), facts{lock: ruleOf(c.inv).Lock.Short(), opaque: &opaque{at: arg, value: types.ExprString(arg), receiver: runner}})
		}
	}
}

// value checks a named function handed as a value, by what it takes.
func (c *checker) value(name string, fn *types.Func, at ast.Expr) {
	f := facts{target: name, lock: ruleOf(c.inv).Lock.Short()}
	t := c.acq.Of(fn.Origin())
	if k := t.Take(c.lock, true); k != nil {
		f.take = &take{at: at, path: k.Path, takenAt: k.Site.String(), maybe: k.Maybe}
	}
	if t != nil && t.Unresolved != nil {
		u := t.Unresolved
		f.unresolved = &unresolved{at: at, what: u.What, path: u.Path, madeAt: u.Site.String()}
	}
	verdict(c.r.For(c.inv), f)
}
