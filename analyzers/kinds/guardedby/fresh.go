package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// Initialisation is not a race: a value the function allocates is seen by
// no other code until it escapes. A local variable counts as holding such
// a value when its only assignment is its definition and that is an
// allocation (&T{...}, T{...}, new(T)), or when it is declared as a
// struct without a value (var t T); it escapes at its first use that is
// not the selection of one of its fields (passed, returned, assigned,
// captured, a method called on it, its address taken; not a deferred
// call, which runs when the function returns, after every access in it).
// Its accesses up to
// that point, and a call that hands it over at that point, need no lock.
// A literal that does not run in place sees a captured variable as
// escaped: it may run at any time later.
func (ch *checker) freshVars(u *unit) map[*types.Var]*freshVar {
	info := ch.r.Pass.TypesInfo
	out := map[*types.Var]*freshVar{}
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := info.Defs[id].(*types.Var)
		if !ok || v.IsField() || !allocated(info, ch.r.Live.Value(v), v, c.Parent().Node()) {
			continue
		}
		var lit *ast.FuncLit
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			lit = e.Node().(*ast.FuncLit)
			break
		}
		var rt *root
		if lit == nil {
			rt = u.roots[0]
		} else {
			for _, r := range u.roots {
				if r.within[lit] {
					rt = r
				}
			}
		}
		if rt != nil {
			out[v] = &freshVar{root: rt}
		}
	}
	if len(out) == 0 {
		return out
	}
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := info.Uses[id].(*types.Var)
		f := out[v]
		if !ok || f == nil || f.escape.IsValid() {
			continue
		}
		if sel, ok := c.Parent().Node().(*ast.SelectorExpr); ok && sel.X == id {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
				continue
			}
		}
		if deferredUse(c) {
			continue
		}
		f.escape = id.Pos()
	}
	return out
}

// allocated reports whether a variable's value is one the function
// allocates: val is its only value (live.Info.Value), spec the node that
// declares it.
func allocated(info *types.Info, val ast.Expr, v *types.Var, decl ast.Node) bool {
	switch e := ast.Unparen(val).(type) {
	case nil:
		// var t T: a struct of its own.
		vs, ok := decl.(*ast.ValueSpec)
		_, isStruct := v.Type().Underlying().(*types.Struct)
		return ok && len(vs.Values) == 0 && isStruct
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(e.X).(*ast.CompositeLit)
		return ok && e.Op == token.AND
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
			b, ok := info.Uses[id].(*types.Builtin)
			return ok && b.Name() == "new"
		}
	}
	return false
}

// isFresh reports whether a probe's value is a fresh variable of the root
// the probe runs in, not escaped before the probe.
func (ch *checker) isFresh(u *unit, rt *root, p *probe) bool {
	if p.base == nil {
		return false
	}
	e := ast.Unparen(p.base)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if s, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(s.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := ch.r.Pass.TypesInfo.Uses[id].(*types.Var)
	f := u.fresh[v]
	if f == nil || f.root.top() != rt.top() {
		return false
	}
	return !f.escape.IsValid() || id.Pos() <= f.escape
}

// deferredUse reports whether an identifier is an operand of the call of
// a defer statement, outside any literal: evaluated there, but the call
// runs when the function returns.
func deferredUse(c inspector.Cursor) bool {
	for p := c.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.DeferStmt:
			return true
		case *ast.FuncLit, ast.Stmt, nil:
			return false
		}
	}
}
