package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Initialisation is not a race: a value the function allocates is seen by
// no other code until it escapes. A local variable counts as holding such
// a value when its only assignment is its definition and that is an
// allocation (&T{...}, T{...}, new(T), or a call of a function of the
// package that returns such a value, freshResult), or when it is declared
// as a struct without a value (var t T); it escapes at its first use that is
// not the selection of one of its fields (passed, returned, assigned,
// captured, a method called on it, its address taken; not a deferred
// call, which runs when the function returns, after every access in it;
// not a call of a method that only initialises it, initialisesOnly).
// Its accesses up to
// that point, and a call that hands it over at that point, need no lock.
// A literal that does not run in place sees a captured variable as
// escaped: it may run at any time later. A loop that runs an escape and
// then comes back to an access (the variable defined before the loop's
// body) makes the access come after the escape (freshAt). Variables that
// hold only allocations and one another's values are one group
// (freshgroup.go): handing a value to another member is no escape, and an
// escape of one is an escape of all.
func (ch *checker) freshVars(u *unit) map[*types.Var]*freshVar {
	info := ch.r.Pass.TypesInfo
	out := map[*types.Var]*freshVar{}
	members := ch.groupMembers(u)
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := info.Defs[id].(*types.Var)
		if !ok || v.IsField() || !members[v] && !ch.allocated(ch.r.Live.Value(v), v, c.Parent().Node()) {
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
			out[v] = &freshVar{root: rt, defs: []token.Pos{id.Pos()}}
		}
	}
	if len(out) == 0 {
		return out
	}
	u.loops = loopsOf(u.cur)
	// The paths from members to values that are fresh with them
	// (freshfield.go), before the escapes: storing a member into one of
	// them is no escape.
	tracked := ch.trackedPaths(u, members)
	u.tracked = tracked
	var links [][2]*types.Var
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := info.Uses[id].(*types.Var)
		f := out[v]
		if !ok || f == nil || assignedTo(c) {
			continue
		}
		if w := ch.handedToMember(u, c, members, tracked); w != nil && out[w] != nil {
			links = append(links, [2]*types.Var{v, w})
			continue
		}
		if sel, ok := c.Parent().Node().(*ast.SelectorExpr); ok && sel.X == id {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
				continue
			}
		}
		if deferredUse(c) || ch.initialised(c, tracked) {
			continue
		}
		f.escapes = append(f.escapes, id.Pos())
		f.noteReturn(c, id.Pos())
	}
	links = append(links, ch.pathEscapes(u, out, tracked)...)
	unite(out, links)
	return out
}

// noteReturn records an escape at pos that is an operand of a return
// statement (returnedBy).
func (f *freshVar) noteReturn(c inspector.Cursor, pos token.Pos) {
	if end, ok := returnedBy(c); ok {
		if f.returns == nil {
			f.returns = map[token.Pos]token.Pos{}
		}
		f.returns[pos] = end
	}
}

// returnedBy reports whether an identifier is an operand of a return
// statement of the declaration's own body (not of a literal), and the end
// of that statement: the function ends there, so nothing after it runs
// with the value handed over; only the rest of the statement does.
func returnedBy(c inspector.Cursor) (token.Pos, bool) {
	for p := c.Parent(); ; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ReturnStmt:
			return n.End(), true
		case *ast.FuncLit, ast.Stmt, nil:
			return token.NoPos, false
		}
	}
}

// assignedTo reports whether an identifier is the left-hand side of a
// plain assignment: given a value, not used.
func assignedTo(c inspector.Cursor) bool {
	a, ok := c.Parent().Node().(*ast.AssignStmt)
	return ok && (a.Tok == token.ASSIGN || a.Tok == token.DEFINE) && slices.Contains(a.Lhs, ast.Expr(c.Node().(*ast.Ident)))
}

// loop is the extent of a loop statement and of its body. A function
// with a goto is one loop: a jump back may run anything again.
type loop struct{ stmt, body [2]token.Pos }

func loopsOf(decl inspector.Cursor) []loop {
	var out []loop
	for c := range decl.Preorder((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.BranchStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.ForStmt:
			out = append(out, loop{[2]token.Pos{n.Pos(), n.End()}, [2]token.Pos{n.Body.Pos(), n.Body.End()}})
		case *ast.RangeStmt:
			out = append(out, loop{[2]token.Pos{n.Pos(), n.End()}, [2]token.Pos{n.Body.Pos(), n.Body.End()}})
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				d := decl.Node()
				out = append(out, loop{[2]token.Pos{d.Pos(), d.End()}, [2]token.Pos{token.NoPos, token.NoPos}})
			}
		}
	}
	return out
}

// freshAt reports whether the variable's value has not escaped when the
// code at pos runs: no escape before it, and none after it in a loop
// around both that the definition of the variable or of one of its group
// is outside the body of (the next round reaches pos after the escape). The escape itself, the call
// that hands the value over, still sees it fresh the first time.
func (f *freshVar) freshAt(pos token.Pos, loops []loop) bool {
	within := func(p token.Pos, span [2]token.Pos) bool { return span[0] <= p && p < span[1] }
	for _, e := range f.escapes {
		if end, ok := f.returns[e]; ok {
			// A return: only the rest of its own statement runs after.
			if e < pos && pos < end {
				return false
			}
			continue
		}
		if e < pos {
			return false
		}
		for _, l := range loops {
			if within(pos, l.stmt) && within(e, l.stmt) && slices.ContainsFunc(f.defs, func(d token.Pos) bool { return !within(d, l.body) }) {
				return false
			}
		}
	}
	return true
}

// allocated reports whether a variable's value is one the function
// allocates: val is its only value (live.Info.Value), spec the node that
// declares it.
func (ch *checker) allocated(val ast.Expr, v *types.Var, decl ast.Node) bool {
	if val == nil {
		// var t T: a struct of its own.
		vs, ok := decl.(*ast.ValueSpec)
		_, isStruct := v.Type().Underlying().(*types.Struct)
		return ok && len(vs.Values) == 0 && isStruct
	}
	return ch.allocation(val)
}

// allocation reports whether an expression allocates a value no other
// code sees: a composite literal, its address, new(T), or a call of a
// function of the package whose result is fresh.
func (ch *checker) allocation(val ast.Expr) bool {
	info := ch.r.Pass.TypesInfo
	switch e := ast.Unparen(val).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(e.X).(*ast.CompositeLit)
		return ok && e.Op == token.AND
	case *ast.CallExpr:
		if builtin(info, e) == "new" {
			return true
		}
		if fn := typeutil.StaticCallee(info, e); fn != nil {
			return ch.freshResult(fn)
		}
	}
	return false
}

// freshResult reports whether fn, a function of the package, returns a
// value it allocated that no other code has seen: it has one result, and
// each of its own return statements returns an allocation or a fresh
// variable not escaped before the return. A function being decided
// already (recursion), or of another package, is not.
func (ch *checker) freshResult(fn *types.Func) bool {
	fn = fn.Origin()
	if r, ok := ch.freshResults[fn]; ok {
		return r
	}
	ch.freshResults[fn] = false
	u := ch.byFunc[fn]
	if u == nil || fn.Signature().Results().Len() != 1 {
		return false
	}
	ch.prepare(u)
	info := ch.r.Pass.TypesInfo
	returns := 0
	for c := range u.cur.Preorder((*ast.ReturnStmt)(nil)) {
		ret := c.Node().(*ast.ReturnStmt)
		if _, inLit := enclosingLit(c); inLit {
			continue // a literal's own result
		}
		returns++
		if len(ret.Results) != 1 {
			return false // a bare return of a named result
		}
		if ch.allocation(ret.Results[0]) {
			continue
		}
		id, ok := ast.Unparen(ret.Results[0]).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ := info.Uses[id].(*types.Var)
		f := u.fresh[v]
		if f == nil || f.root != u.roots[0] || !f.freshAt(id.Pos(), u.loops) {
			return false
		}
	}
	ch.freshResults[fn] = returns > 0
	return returns > 0
}

// enclosingLit is the innermost function literal around a cursor.
func enclosingLit(c inspector.Cursor) (*ast.FuncLit, bool) {
	for e := range c.Enclosing((*ast.FuncLit)(nil)) {
		return e.Node().(*ast.FuncLit), true
	}
	return nil, false
}

// isFresh reports whether a probe's value is a fresh variable of the root
// the probe runs in, not escaped before the probe. A value reached from it
// through a pointer (an embedded pointer on the way to the field, r.db of
// a callee's need) was not allocated with it: it is not fresh, unless each
// pointer on the way is a path the function keeps fresh with the variable
// (trackedPaths: nt.tmpl through the *common that init gave nt).
func (ch *checker) isFresh(u *unit, rt *root, p *probe) bool {
	if p.base == nil || p.sub != "" {
		return false
	}
	info := ch.r.Pass.TypesInfo
	var id *ast.Ident
	var path fieldPath
	if p.acc != nil {
		// The access's own chain, with the field it selects.
		id, path = selPath(info, p.acc.sel)
		if len(path) > 0 {
			path = path[:len(path)-1]
		}
	} else {
		// A call needing the lock of its receiver or argument: the value
		// at the end of the chain.
		id, path = selPath(info, p.base)
	}
	if id == nil {
		if p.acc != nil && viaEmbeddedPointer(info, p.acc.sel) {
			return false
		}
		e := ast.Unparen(p.base)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		if s, ok := e.(*ast.StarExpr); ok {
			e = ast.Unparen(s.X)
		}
		if id, _ = e.(*ast.Ident); id == nil {
			return false
		}
		path = nil
	}
	v, _ := info.Uses[id].(*types.Var)
	f := u.fresh[v]
	if f == nil || f.root.top() != rt.top() {
		return false
	}
	for i, fld := range path {
		if isPointer(fld.Type()) && !u.isTracked(v, path[:i+1]) {
			return false
		}
	}
	return f.freshAt(id.Pos(), u.loops)
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

// viaEmbeddedPointer reports whether a field selection reaches the field
// through an embedded pointer (t.tmpl for t.common.tmpl, common a
// *common embedded in t's type).
func viaEmbeddedPointer(info *types.Info, sel *ast.SelectorExpr) bool {
	s := info.Selections[sel]
	if s == nil {
		return false
	}
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := locks.Deref(t).Underlying().(*types.Struct)
		if !ok {
			return true
		}
		t = st.Field(i).Type()
		if isPointer(t) {
			return true
		}
	}
	return false
}
