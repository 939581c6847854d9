package neveracquires

import (
	_ "embed"
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/acquires"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/inspector"
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
	fields := map[*types.Var]string{}
	for _, n := range rl.StoredIn {
		v, err := r.Var(n)
		switch {
		case err == nil && v.IsField():
			fields[v.Origin()] = n.Short()
		case err == nil && n.Pkg == here:
			r.Unverifiable(inv, n.Pos, "stored_in %s is not a field", n.Short())
		case err != nil && n.Pkg == here:
			r.Unverifiable(inv, n.Pos, "stored_in %s not found in package %s: %v", n.Short(), here, err)
		}
	}
	if len(runners)+len(fields) > 0 {
		c.handed(runners, fields)
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
	f := facts[rule.Site]{target: name, lock: ruleOf(c.inv).Lock.Short()}
	if at, k := c.acq.First(b, name, c.lock); at != nil {
		f.take = &take[rule.Site]{at: at, path: k.Path, takenAt: k.Site.String(), maybe: k.Maybe, here: len(k.Path) == 1}
	}
	if at, u := c.acq.FirstUnresolved(b, name); at != nil {
		f.unresolved = &unresolved[rule.Site]{at: at, what: u.What, path: u.Path, madeAt: u.Site.String()}
	}
	verdict(c.r.For(c.inv), f)
}

// handed checks every function handed, in this package, to one of the
// runners or stored in one of the callback fields: a literal by its
// body, a named function by what it takes, any other value as one that
// cannot be followed.
func (c *checker) handed(runners map[*types.Func]string, fields map[*types.Var]string) {
	info := c.r.Pass.TypesInfo
	filter := []ast.Node{(*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.CompositeLit)(nil)}
	for cur := range c.r.Inspect.Root().Preorder(filter...) {
		host := hostOf(info, cur)
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			fn := typeutil.StaticCallee(info, n)
			if fn == nil {
				continue
			}
			if runner, ok := runners[fn.Origin()]; ok {
				for _, arg := range n.Args {
					if _, ok := types.Unalias(info.TypeOf(arg)).Underlying().(*types.Signature); ok {
						c.callback(arg, "handed to "+runner, host)
					}
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && len(n.Rhs) == len(n.Lhs) {
					if f, ok := info.Uses[sel.Sel].(*types.Var); ok && fields[f.Origin()] != "" {
						c.callback(n.Rhs[i], "stored in "+fields[f.Origin()], host)
					}
				}
			}
		case *ast.CompositeLit:
			for _, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && fields[f.Origin()] != "" {
							c.callback(kv.Value, "stored in "+fields[f.Origin()], host)
						}
					}
				}
			}
		}
	}
}

// callback checks one function value a runner is handed or a field
// stores: how says which ("handed to (*p.Lane).Enqueue"), host where.
func (c *checker) callback(v ast.Expr, how, host string) {
	switch a := ast.Unparen(v).(type) {
	case *ast.FuncLit:
		c.body("the function literal "+how+" in "+host, c.r.Live.Lit(a))
		return
	case *ast.Ident, *ast.SelectorExpr:
		if fn := live.FuncValue(c.r.Pass.TypesInfo, a); fn != nil {
			c.value(rule.FuncName(fn), fn, a)
			return
		}
		if id, ok := a.(*ast.Ident); ok && id.Name == "nil" {
			return // no callback
		}
	}
	verdict(c.r.For(c.inv), facts[rule.Site]{lock: ruleOf(c.inv).Lock.Short(), opaque: &opaque[rule.Site]{at: v, value: types.ExprString(v), how: how}})
}

// hostOf names the declaration a node is in, for messages.
func hostOf(info *types.Info, cur inspector.Cursor) string {
	for d := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		if obj, ok := info.Defs[d.Node().(*ast.FuncDecl).Name].(*types.Func); ok {
			return rule.FuncName(obj)
		}
	}
	return "a package-level declaration"
}

// value checks a named function handed as a value, by what it takes.
func (c *checker) value(name string, fn *types.Func, at ast.Expr) {
	f := facts[rule.Site]{target: name, lock: ruleOf(c.inv).Lock.Short()}
	t := c.acq.Of(fn.Origin())
	if k := t.Take(c.lock, true); k != nil {
		f.take = &take[rule.Site]{at: at, path: k.Path, takenAt: k.Site.String(), maybe: k.Maybe}
	}
	if t != nil && t.Unresolved != nil {
		u := t.Unresolved
		f.unresolved = &unresolved[rule.Site]{at: at, what: u.What, path: u.Path, madeAt: u.Site.String()}
	}
	verdict(c.r.For(c.inv), f)
}
