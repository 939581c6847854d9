package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Values fresh with a fresh variable. What a fresh variable reaches
// through a pointer field was not allocated with it, unless the function
// can show otherwise: text/template's Clone makes nt := t.copy(nil), whose
// embedded *common is the argument nil (copy returns &Template{...,
// common: c}), and nt.init() gives the field only a common of its own,
// new(common) with maps it makes; so what nt.common points to, and the map
// nt.tmpl, are seen by no other code while nt is not. A path from a member
// of a fresh group through pointer and map fields (nt.common,
// nt.common.tmpl) is tracked when the value at its end is owned: every
// value the function gives the member (its definition and assignments)
// holds, at that path, nil or a value allocated for it, and every store
// to a field of the path, in the function and in the methods that only
// initialise a member (initialisesOnly), stores nil or such a value. The
// value at a tracked path is one more member of the group: a use of it
// that may hand it over (passed, assigned, returned, a method called on
// it, an element read from its map, which may be a member stored there)
// is an escape of the group, and storing a member into its map
// (nt.tmpl[k] = nt) is none. Accesses through a tracked pointer are as
// fresh as the variable.

// fieldPath is a chain of fields selected from a variable, embedded
// fields included (nt.tmpl is common, tmpl).
type fieldPath []*types.Var

func (p fieldPath) key() string {
	var b strings.Builder
	for _, f := range p {
		fmt.Fprintf(&b, ".%s@%d", f.Name(), f.Pos())
	}
	return b.String()
}

// selPath is the variable and the fields a chain of field selections
// starts from and selects (nt.common.tmpl: nt, [common tmpl]); nil when e
// is no such chain.
func selPath(info *types.Info, e ast.Expr) (*ast.Ident, fieldPath) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e, nil
	case *ast.SelectorExpr:
		s := info.Selections[e]
		if s == nil || s.Kind() != types.FieldVal {
			return nil, nil
		}
		id, p := selPath(info, e.X)
		if id == nil {
			return nil, nil
		}
		p = slices.Clone(p)
		t := s.Recv()
		for _, i := range s.Index() {
			st, ok := locks.Deref(t).Underlying().(*types.Struct)
			if !ok {
				return nil, nil
			}
			f := st.Field(i)
			p = append(p, f.Origin())
			t = f.Type()
		}
		return id, p
	}
	return nil, nil
}

func isMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// isTracked reports whether the path from v is one whose value is fresh
// with v.
func (u *unit) isTracked(v *types.Var, p fieldPath) bool {
	return slices.ContainsFunc(u.tracked[v], func(q fieldPath) bool { return slices.Equal(p, q) })
}

// trackedPaths finds, for each member of the unit's fresh group, the
// paths through pointer and map fields whose values are owned (see
// above): the pointers the function selects fields through (nt.tmpl
// through nt.common) and the maps it stores members into. A path is
// tracked only with every pointer on the way.
func (ch *checker) trackedPaths(u *unit, members map[*types.Var]bool) map[*types.Var][]fieldPath {
	info := ch.r.Pass.TypesInfo
	member := func(id *ast.Ident) *types.Var {
		v, _ := info.Uses[id].(*types.Var)
		if !members[v] {
			return nil
		}
		return v
	}
	cands := map[*types.Var]map[string]fieldPath{}
	add := func(v *types.Var, p fieldPath) {
		if cands[v] == nil {
			cands[v] = map[string]fieldPath{}
		}
		cands[v][p.key()] = p
	}
	for c := range u.cur.Preorder((*ast.SelectorExpr)(nil), (*ast.AssignStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.SelectorExpr:
			id, p := selPath(info, n)
			if id == nil || member(id) == nil {
				continue
			}
			for i := 0; i < len(p)-1; i++ {
				if isPointer(p[i].Type()) {
					add(member(id), p[:i+1])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, lhs := range n.Lhs {
				// A member, or a fresh result that may keep one, stored
				// into a map.
				ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
				stored := false
				switch r := ast.Unparen(n.Rhs[i]).(type) {
				case *ast.Ident:
					stored = member(r) != nil
				case *ast.CallExpr:
					fn := typeutil.StaticCallee(info, r)
					stored = fn != nil && ch.freshResult(fn)
				}
				if !ok || !stored {
					continue
				}
				if id, p := selPath(info, ix.X); id != nil && member(id) != nil && len(p) > 0 && isMap(p[len(p)-1].Type()) {
					add(member(id), p)
				}
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	ctx := ch.ownCtxOf(u)
	out := map[*types.Var][]fieldPath{}
	for v, ps := range cands {
		for _, p := range ps {
			ok := ch.ownedVar(ctx, v, p)
			for i := 0; ok && i < len(p)-1; i++ {
				ok = !isPointer(p[i].Type()) || ch.ownedVar(ctx, v, p[:i+1])
			}
			if ok {
				out[v] = append(out[v], p)
			}
		}
	}
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b fieldPath) int { return strings.Compare(a.key(), b.key()) })
	}
	return out
}

// storedInto is the member whose tracked map an index expression on the
// left of an assignment stores into, or nil.
func storedInto(info *types.Info, ix *ast.IndexExpr, tracked map[*types.Var][]fieldPath) *types.Var {
	id, p := selPath(info, ix.X)
	if id == nil || len(p) == 0 || !isMap(p[len(p)-1].Type()) {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if !slices.ContainsFunc(tracked[v], func(q fieldPath) bool { return slices.Equal(p, q) }) {
		return nil
	}
	return v
}

// pathEscapes adds to each member the escapes of the values at its
// tracked paths, and returns the links a tracked value makes when handed
// to a call that keeps it only in the result a member is given (tmpl :=
// v.copy(nt.common)).
func (ch *checker) pathEscapes(u *unit, out map[*types.Var]*freshVar, tracked map[*types.Var][]fieldPath) [][2]*types.Var {
	if len(tracked) == 0 {
		return nil
	}
	info := ch.r.Pass.TypesInfo
	var links [][2]*types.Var
	for c := range u.cur.Preorder((*ast.SelectorExpr)(nil)) {
		id, p := selPath(info, c.Node().(*ast.SelectorExpr))
		if id == nil || len(p) == 0 {
			continue
		}
		v, _ := info.Uses[id].(*types.Var)
		f := out[v]
		if f == nil || !slices.ContainsFunc(tracked[v], func(q fieldPath) bool { return slices.Equal(p, q) }) {
			continue
		}
		if quietUse(info, c) {
			continue
		}
		if w := ch.keptBy(u, c, v); w != nil && out[w] != nil {
			links = append(links, [2]*types.Var{v, w})
			continue
		}
		f.escapes = append(f.escapes, id.Pos())
		f.noteReturn(c, id.Pos())
	}
	for _, f := range out {
		slices.Sort(f.escapes)
	}
	return links
}

// keptBy is the member given the result of the call whose argument c is
// (assigned to it, or stored into its tracked map), when the call's
// function returns a fresh value and keeps the argument only in it, and
// the call runs in the body that defines the member whose path c selects;
// nil otherwise.
func (ch *checker) keptBy(u *unit, c inspector.Cursor, v *types.Var) *types.Var {
	info := ch.r.Pass.TypesInfo
	call, ok := c.Parent().Node().(*ast.CallExpr)
	if lit, _ := enclosingLit(c); !ok || lit != litAt(u, v.Pos()) {
		return nil
	}
	i := slices.Index(call.Args, c.Node().(ast.Expr))
	fn := typeutil.StaticCallee(info, call)
	if i < 0 || fn == nil || !ch.freshResult(fn) || !ch.keptInResult(fn, i) {
		return nil
	}
	as, ok := c.Parent().Parent().Node().(*ast.AssignStmt)
	if !ok || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	j := slices.Index(as.Rhs, ast.Expr(call))
	if j < 0 {
		return nil
	}
	if ix, ok := ast.Unparen(as.Lhs[j]).(*ast.IndexExpr); ok {
		return storedInto(info, ix, u.tracked)
	}
	l, ok := ast.Unparen(as.Lhs[j]).(*ast.Ident)
	if !ok {
		return nil
	}
	w, _ := info.ObjectOf(l).(*types.Var)
	if !u.members[w] {
		return nil
	}
	return w
}

// quietUse reports whether the value of a pointer or map field, selected
// at c, is used in a way that hands it to no other code: a field selected
// from it, an element stored into it, compared with nil, given a new
// value, its length taken, an element deleted.
func quietUse(info *types.Info, c inspector.Cursor) bool {
	e := c.Node()
	p := c.Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		e = p.Node()
		p = p.Parent()
	}
	switch n := p.Node().(type) {
	case *ast.SelectorExpr:
		s := info.Selections[n]
		return n.X == e && s != nil && s.Kind() == types.FieldVal
	case *ast.IndexExpr:
		if n.X != e {
			return false
		}
		switch st := p.Parent().Node().(type) {
		case *ast.AssignStmt:
			return slices.Contains(st.Lhs, ast.Expr(n))
		case *ast.IncDecStmt:
			return true
		}
		return false // an element read: it may be a member stored there
	case *ast.BinaryExpr:
		other := n.Y
		if n.Y == e {
			other = n.X
		}
		return (n.Op == token.EQL || n.Op == token.NEQ) && isNil(info, other)
	case *ast.AssignStmt:
		return slices.Contains(n.Lhs, e.(ast.Expr))
	case *ast.CallExpr:
		switch builtin(info, n) {
		case "len":
			return true
		case "delete", "clear":
			return len(n.Args) > 0 && n.Args[0] == e
		}
	}
	return false
}

// keepsPaths reports whether a method that only initialises its receiver
// (initialisesOnly) hands over none of the values at a member's tracked
// paths: each selection from its receiver that ends in a field of one of
// them is a quiet use (quietUse).
func (ch *checker) keepsPaths(fn *types.Func, paths []fieldPath) bool {
	u := ch.byFunc[fn.Origin()]
	if u == nil {
		return false
	}
	recv := fn.Origin().Signature().Recv()
	info := ch.r.Pass.TypesInfo
	for c := range u.cur.Preorder((*ast.SelectorExpr)(nil)) {
		id, p := selPath(info, c.Node().(*ast.SelectorExpr))
		if id == nil || info.Uses[id] != recv || len(p) == 0 {
			continue
		}
		last := p[len(p)-1]
		if !slices.ContainsFunc(paths, func(q fieldPath) bool { return slices.Contains(q, last) }) {
			continue
		}
		if !quietUse(info, c) {
			return false
		}
	}
	return true
}

// ownCtx is where an ownership question is asked: a unit, with the
// arguments its caller passes to the parameters that a fresh result
// keeps (args), or the receiver of a method that only initialises it
// (recv). seen holds the questions being answered, budget what is left
// to spend on one.
type ownCtx struct {
	u      *unit
	recv   *types.Var
	args   map[*types.Var]ownArg
	seen   map[string]bool
	budget *int
}

// ownArg is what a caller passes for a parameter: the argument, where it
// is, and whether the call's result is a member the argument is linked to.
type ownArg struct {
	ctx    *ownCtx
	e      ast.Expr
	linked bool
}

// ownCtxOf starts the questions about a unit.
func (ch *checker) ownCtxOf(u *unit) *ownCtx {
	if u.members == nil {
		ch.groupMembers(u)
	}
	budget := 400
	return &ownCtx{u: u, seen: map[string]bool{}, budget: &budget}
}

// with is a context for another unit, sharing the question's state.
func (ctx *ownCtx) with(u *unit, ch *checker) *ownCtx {
	if u.members == nil {
		ch.groupMembers(u)
	}
	return &ownCtx{u: u, seen: ctx.seen, budget: ctx.budget, args: map[*types.Var]ownArg{}}
}

// enter marks a question as being answered; false when it already is
// (a cycle) or the budget is spent: the answer is then no.
func (ctx *ownCtx) enter(key string) bool {
	if ctx.seen[key] || *ctx.budget <= 0 {
		return false
	}
	*ctx.budget--
	ctx.seen[key] = true
	return true
}

// ownedVar reports whether the value at path q from the member v is nil
// or owned: every value v is given holds one there, and every store to a
// field of q keeps it so.
func (ch *checker) ownedVar(ctx *ownCtx, v *types.Var, q fieldPath) bool {
	key := fmt.Sprintf("var %p %d%s", ctx.u, v.Pos(), q.key())
	if !ctx.u.members[v] || !ctx.enter(key) {
		return false
	}
	defer delete(ctx.seen, key)
	for _, e := range ctx.u.vals[v] {
		if e != nil && !ch.ownedExpr(ctx, e, q, true) {
			return false
		}
	}
	return ch.storesKeep(ctx, q)
}

// ownedExpr reports whether the value at path q from the value of e is
// nil or owned. linked: e is a member or a tracked value, or an argument
// kept in a call's result, and the group links it to the value it is
// given (handedToMember, keptBy); otherwise a member there is shared with
// a value that is not linked to it.
func (ch *checker) ownedExpr(ctx *ownCtx, e ast.Expr, q fieldPath, linked bool) bool {
	info := ch.r.Pass.TypesInfo
	if isNil(info, e) {
		return true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		lit, ok := ast.Unparen(e.X).(*ast.CompositeLit)
		return ok && e.Op == token.AND && ch.litOwned(ctx, lit, q)
	case *ast.CompositeLit:
		return ch.litOwned(ctx, e, q)
	case *ast.CallExpr:
		switch builtin(info, e) {
		case "new":
			return true // every field the zero value
		case "make":
			return len(q) == 0
		case "":
		default:
			return false
		}
		fn := typeutil.StaticCallee(info, e)
		if fn == nil || !ch.freshResult(fn) {
			return false
		}
		return len(q) == 0 || ch.resultOwned(ctx, fn, e, q, linked)
	case *ast.Ident:
		v, _ := info.Uses[e].(*types.Var)
		if a, ok := ctx.args[v]; ok && v != nil {
			return ch.ownedExpr(a.ctx, a.e, q, a.linked)
		}
		if !linked || !ctx.u.members[v] {
			return false
		}
		return len(q) == 0 || ch.ownedVar(ctx, v, q)
	case *ast.SelectorExpr:
		id, p := selPath(info, e)
		if id == nil || !linked || len(p) == 0 {
			return false
		}
		last := p[len(p)-1].Type()
		v, _ := info.Uses[id].(*types.Var)
		if !ctx.u.members[v] || !isPointer(last) && !isMap(last) {
			return false
		}
		return ch.ownedVar(ctx, v, append(p, q...))
	}
	return false
}

// litOwned reports whether the value at path q from a composite literal
// is nil or owned: a field the literal leaves out is nil.
func (ch *checker) litOwned(ctx *ownCtx, lit *ast.CompositeLit, q fieldPath) bool {
	if len(q) == 0 {
		return true
	}
	info := ch.r.Pass.TypesInfo
	st, ok := info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i, el := range lit.Elts {
		f, val := (*types.Var)(nil), el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				f, _ = info.ObjectOf(id).(*types.Var)
			}
			val = kv.Value
		} else if i < st.NumFields() {
			f = st.Field(i)
		}
		if f != nil && f.Origin() == q[0] {
			// A member in a literal is not linked to it.
			return ch.ownedExpr(ctx, val, q[1:], false)
		}
	}
	for i := range st.NumFields() {
		if st.Field(i).Origin() == q[0] {
			return true
		}
	}
	return false
}

// resultOwned reports whether the value at path q from what a call of a
// fresh-result function returns is nil or owned: each of its returns
// holds one there, a parameter it keeps only in the result standing for
// the call's argument.
func (ch *checker) resultOwned(ctx *ownCtx, fn *types.Func, call *ast.CallExpr, q fieldPath, linked bool) bool {
	fn = fn.Origin()
	fu := ch.byFunc[fn]
	if fu == nil {
		return false
	}
	fctx := ctx.with(fu, ch)
	if ch.captured(fu) {
		return false
	}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		// A variadic parameter holds a slice the call builds, not the
		// argument written at its place.
		variadic := sig.Variadic() && i == sig.Params().Len()-1
		if i < len(call.Args) && !variadic && ch.keptInResult(fn, i) {
			fctx.args[sig.Params().At(i)] = ownArg{ctx: ctx, e: call.Args[i], linked: linked}
		}
	}
	for c := range fu.cur.Preorder((*ast.ReturnStmt)(nil)) {
		ret := c.Node().(*ast.ReturnStmt)
		if _, inLit := enclosingLit(c); inLit {
			continue
		}
		if len(ret.Results) != 1 || !ch.ownedExpr(fctx, ret.Results[0], q, true) {
			return false
		}
	}
	return true
}

// fieldStores is what a unit writes to fields: the plain stores
// (x.f = e, through any chain of fields), the fields written in a way
// that cannot be followed (their address taken, a range or a multi-value
// assignment that sets them, a struct assigned through a pointer), and
// the methods that only initialise their receiver that it calls.
type fieldStores struct {
	stores []fieldStore
	lost   map[*types.Var]bool
	inits  []*types.Func
}

type fieldStore struct {
	base *ast.Ident
	path fieldPath
	val  ast.Expr
}

func (ch *checker) storesOf(u *unit) *fieldStores {
	if u.stores != nil {
		return u.stores
	}
	info := ch.r.Pass.TypesInfo
	fs := &fieldStores{lost: map[*types.Var]bool{}}
	u.stores = fs
	lose := func(e ast.Expr) {
		// The field written: what it holds, with every field of it
		// when it is a struct; what a pointer in it points to is not.
		switch e := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s := info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
				fs.lost[s.Obj().(*types.Var).Origin()] = true
			}
		case *ast.StarExpr:
			if st, ok := info.TypeOf(e).Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					fs.lost[st.Field(i).Origin()] = true
				}
			}
		}
	}
	for c := range u.cur.Preorder((*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, p := selPath(info, lhs)
				switch {
				case id != nil && len(p) > 0 && len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE):
					fs.stores = append(fs.stores, fieldStore{base: id, path: p, val: n.Rhs[i]})
				case id == nil || len(p) > 0:
					lose(lhs)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				lose(n.X)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					lose(e)
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			// Whatever the receiver: a call on a member is one of them.
			s := info.Selections[sel]
			if s == nil || s.Kind() != types.MethodVal {
				continue
			}
			if fn, _ := s.Obj().(*types.Func); fn != nil && ch.initialisesOnly(fn) {
				fs.inits = append(fs.inits, fn)
			}
		}
	}
	return fs
}

// storesKeep reports whether every store of the unit to a field of q, and
// of the methods that only initialise a member it calls, leaves nil or an
// owned value at q. A method's store to its receiver's field of a member
// of its own that escapes only there (init's t.common = c) is owned.
func (ch *checker) storesKeep(ctx *ownCtx, q fieldPath) bool {
	key := fmt.Sprintf("stores %p %v%s", ctx.u, ctx.recv != nil, q.key())
	if !ctx.enter(key) {
		return false
	}
	defer delete(ctx.seen, key)
	info := ch.r.Pass.TypesInfo
	fs := ch.storesOf(ctx.u)
	for _, f := range q {
		if fs.lost[f] {
			return false
		}
	}
	for _, s := range fs.stores {
		last := s.path[len(s.path)-1]
		for j, f := range q {
			if f != last {
				continue
			}
			linked := ctx.recv != nil && info.Uses[s.base] == ctx.recv && ch.onlyInto(ctx, s.val)
			if !ch.ownedExpr(ctx, s.val, q[j+1:], linked) {
				return false
			}
		}
	}
	for _, fn := range fs.inits {
		fu := ch.byFunc[fn.Origin()]
		if fu == nil {
			return false
		}
		ch.prepare(fu)
		fctx := ctx.with(fu, ch)
		fctx.recv = fn.Origin().Signature().Recv()
		if !ch.storesKeep(fctx, q) {
			return false
		}
	}
	return true
}

// onlyInto reports whether e is a member of a method's own fresh group
// whose every escape is a store into a field of the method's receiver.
func (ch *checker) onlyInto(ctx *ownCtx, e ast.Expr) bool {
	info := ch.r.Pass.TypesInfo
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := info.Uses[id].(*types.Var)
	f := ctx.u.fresh[v]
	if f == nil || !ctx.u.members[v] || ch.captured(ctx.u) {
		return false
	}
	into := map[token.Pos]bool{}
	for _, s := range ch.storesOf(ctx.u).stores {
		if r, ok := ast.Unparen(s.val).(*ast.Ident); ok && info.Uses[s.base] == ctx.recv {
			into[r.Pos()] = true
		}
	}
	for _, p := range f.escapes {
		if !into[p] {
			return false
		}
	}
	return true
}

// captured reports whether a literal of the unit uses a member of its
// fresh group defined outside it. Such a literal may run after the
// function returns (a goroutine, a stored function) and reach what the
// member reaches, the maps its caller fills included: what the function
// returns or stores into its receiver is then not owned. The escape
// positions of the function's own body say nothing about that.
func (ch *checker) captured(u *unit) bool {
	info := ch.r.Pass.TypesInfo
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		v, _ := info.Uses[c.Node().(*ast.Ident)].(*types.Var)
		if v == nil || !u.members[v] {
			continue
		}
		if lit, _ := enclosingLit(c); lit != litAt(u, v.Pos()) {
			return true
		}
	}
	return false
}
