package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A group of fresh values: local variables that hold only allocations of
// the function, nil, or one another's values, and that are handed only to
// one another (y := x, x = y, x := newNode(y) where newNode keeps its
// argument only in the value it returns). No other code can see any of
// them until one of them escapes, so the escapes of each are the escapes
// of all: unique's expand links a chain of fresh nodes, each made with the
// one before as its parent, and returns the first. A variable assigned
// where its value cannot be followed (several results of one call, a
// range, an operator assignment, a literal other than the one that
// defines it), or that has a value before its first assignment (a
// parameter, a named result), is no member. A struct variable is a member
// until its address is taken (root := common{...}; root.w = ...; then
// &root handed over): taking it is an escape.

// assigned collects the values each local variable of the unit is given,
// at its definition and after, and the variables given a value that
// cannot be followed. A declaration without a value gives the zero value,
// written as a nil entry.
func (ch *checker) assigned(u *unit) (vals map[*types.Var][]ast.Expr, lost map[*types.Var]bool) {
	info := ch.r.Pass.TypesInfo
	vals = map[*types.Var][]ast.Expr{}
	lost = map[*types.Var]bool{}
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	declared := map[*types.Var]bool{}
	give := func(c inspector.Cursor, lhs, rhs ast.Expr) {
		v := local(lhs)
		if v == nil {
			return
		}
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.Defs[id] == v {
			declared[v] = true
		}
		if lit, _ := enclosingLit(c); lit != litAt(u, v.Pos()) {
			lost[v] = true
		}
		vals[v] = append(vals[v], rhs)
	}
	for c := range u.cur.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			plain := n.Tok == token.ASSIGN || n.Tok == token.DEFINE
			for i, lhs := range n.Lhs {
				if plain && len(n.Lhs) == len(n.Rhs) {
					give(c, lhs, n.Rhs[i])
				} else if v := local(lhs); v != nil {
					lost[v] = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				switch {
				case len(n.Values) == 0:
					give(c, id, nil)
				case len(n.Values) == len(n.Names):
					give(c, id, n.Values[i])
				default:
					if v := local(id); v != nil {
						lost[v] = true
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := local(e); v != nil {
					lost[v] = true
				}
			}
		}
	}
	// A parameter or a named result starts with a value the function
	// did not make; so does a variable a type switch declares.
	for v := range vals {
		if !declared[v] {
			lost[v] = true
		}
	}
	return vals, lost
}

// litAt is the innermost literal of the unit around pos, nil for the
// declaration's own body.
func litAt(u *unit, pos token.Pos) *ast.FuncLit {
	var in *ast.FuncLit
	for c := range u.cur.Preorder((*ast.FuncLit)(nil)) {
		lit := c.Node().(*ast.FuncLit)
		if lit.Pos() <= pos && pos < lit.End() {
			in = lit // preorder: the inner ones come later
		}
	}
	return in
}

// groupMembers is the largest set of the unit's variables whose every
// value is an allocation, the zero value or nil, or a member's value.
func (ch *checker) groupMembers(u *unit) map[*types.Var]bool {
	info := ch.r.Pass.TypesInfo
	u.members = map[*types.Var]bool{} // none while being decided
	vals, lost := ch.assigned(u)
	u.vals = vals
	in := map[*types.Var]bool{}
	for v := range vals {
		if !lost[v] {
			in[v] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range in {
			for _, e := range vals[v] {
				if e == nil || isNil(info, e) || ch.allocation(e) {
					continue
				}
				if id, ok := ast.Unparen(e).(*ast.Ident); ok {
					// A member of the same body: one of a literal that
					// may run later is seen by that literal too.
					if w, ok := info.Uses[id].(*types.Var); ok && in[w] && litAt(u, w.Pos()) == litAt(u, v.Pos()) {
						continue
					}
				}
				delete(in, v)
				changed = true
				break
			}
		}
	}
	u.members = in
	return in
}

func isNil(info *types.Info, e ast.Expr) bool {
	_, ok := info.Types[e].Type.(*types.Basic)
	return ok && info.Types[e].IsNil()
}

// handedToMember reports the member a use of a member hands its value to
// without letting any other code see it: the variable it is assigned to,
// the variable given the result of a call of the package that keeps
// the argument only in the value it returns (keptInResult), or the member
// whose tracked map it is stored into (nt.tmpl[k] = nt, trackedPaths).
// nil: none.
func (ch *checker) handedToMember(u *unit, c inspector.Cursor, members map[*types.Var]bool, tracked map[*types.Var][]fieldPath) *types.Var {
	info := ch.r.Pass.TypesInfo
	id := c.Node().(*ast.Ident)
	if lit, _ := enclosingLit(c); lit != litAt(u, info.Uses[id].Pos()) {
		return nil // a literal that may run later: the value escapes
	}
	member := func(lhs ast.Expr) *types.Var {
		if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
			return storedInto(info, ix, tracked)
		}
		l, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(l).(*types.Var)
		if !members[v] {
			return nil
		}
		return v
	}
	// target is the member given the value of e, an operand of a plain
	// assignment or definition.
	target := func(p inspector.Cursor, e ast.Expr) *types.Var {
		switch n := p.Node().(type) {
		case *ast.AssignStmt:
			if (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) && len(n.Lhs) == len(n.Rhs) {
				if i := slices.Index(n.Rhs, e); i >= 0 {
					return member(n.Lhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				if i := slices.Index(n.Values, e); i >= 0 {
					return member(n.Names[i])
				}
			}
		}
		return nil
	}
	p := c.Parent()
	if call, ok := p.Node().(*ast.CallExpr); ok {
		i := slices.Index(call.Args, ast.Expr(id))
		fn := typeutil.StaticCallee(info, call)
		if i < 0 || fn == nil || !ch.freshResult(fn) || !ch.keptInResult(fn, i) {
			return nil
		}
		return target(p.Parent(), call)
	}
	return target(p, id)
}

// keptInResult reports whether fn, a function of the package, uses its
// i-th parameter only as an element of the composite literal it returns
// (return &node{parent: p}): the argument is reachable from the result
// and from nothing else.
func (ch *checker) keptInResult(fn *types.Func, i int) bool {
	fn = fn.Origin()
	sig := fn.Signature()
	u := ch.byFunc[fn]
	if u == nil || i >= sig.Params().Len() || (sig.Variadic() && i == sig.Params().Len()-1) {
		return false
	}
	param := sig.Params().At(i)
	info := ch.r.Pass.TypesInfo
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != param {
			continue
		}
		if _, inLit := enclosingLit(c); inLit || !inReturnedLiteral(c) {
			return false
		}
	}
	return true
}

// inReturnedLiteral reports whether an identifier is an element of a
// composite literal (or one nested in it) that a return statement
// returns, or whose address it returns.
func inReturnedLiteral(c inspector.Cursor) bool {
	child := c.Node()
	inLit := false
	for p := c.Parent(); ; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.KeyValueExpr:
			if n.Value != child {
				return false
			}
		case *ast.CompositeLit:
			if !slices.Contains(n.Elts, ast.Unparen(child.(ast.Expr))) && !slices.Contains(n.Elts, child.(ast.Expr)) {
				return false
			}
			inLit = true
		case *ast.UnaryExpr:
			if n.Op != token.AND || !inLit {
				return false
			}
		case *ast.ParenExpr:
		case *ast.ReturnStmt:
			return inLit
		default:
			return false
		}
		child = p.Node()
	}
}

// unite merges the escapes of the groups' members: an escape of one is
// an escape of each. Every member keeps its own definition; freshAt
// looks at all of them.
func unite(out map[*types.Var]*freshVar, links [][2]*types.Var) {
	parent := map[*types.Var]*types.Var{}
	var find func(v *types.Var) *types.Var
	find = func(v *types.Var) *types.Var {
		if p, ok := parent[v]; ok && p != v {
			r := find(p)
			parent[v] = r
			return r
		}
		return v
	}
	for _, l := range links {
		if a, b := find(l[0]), find(l[1]); a != b {
			parent[a] = b
		}
	}
	groups := map[*types.Var][]*types.Var{}
	for v := range out {
		r := find(v)
		groups[r] = append(groups[r], v)
	}
	for _, vs := range groups {
		if len(vs) < 2 {
			continue
		}
		var escapes, defs []token.Pos
		returns := map[token.Pos]token.Pos{}
		for _, v := range vs {
			escapes = append(escapes, out[v].escapes...)
			defs = append(defs, out[v].defs...)
			maps.Copy(returns, out[v].returns)
		}
		slices.Sort(escapes)
		for _, v := range vs {
			out[v].escapes = escapes
			out[v].defs = defs
			out[v].returns = returns
		}
	}
}

// initialisesOnly reports whether a call of a method on a fresh value
// leaves it unseen by other code: a method of the package whose receiver
// is used only to select its fields (t.common == nil, t.common = c), never
// in a literal, and none of whose selections is a reference into the
// value's own storage (its address, a slice of an array field, a method
// called on a field). Text/template's Template.init fills the value
// copy(nil) returned.
func (ch *checker) initialisesOnly(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	u := ch.byFunc[fn.Origin()]
	if recv == nil || u == nil {
		return false
	}
	recv = fn.Origin().Signature().Recv()
	info := ch.r.Pass.TypesInfo
	for c := range u.cur.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != recv {
			continue
		}
		if _, inLit := enclosingLit(c); inLit {
			return false
		}
		p := c.Parent()
		if s, ok := p.Node().(*ast.SelectorExpr); !ok || info.Selections[s] == nil || info.Selections[s].Kind() != types.FieldVal {
			return false
		}
		// Up the chain of selections and indexes of the receiver's own
		// storage: what holds it at the top must not reference it.
	chain:
		for {
			switch n := p.Parent().Node().(type) {
			case *ast.ParenExpr:
			case *ast.SelectorExpr:
				if s := info.Selections[n]; s == nil || s.Kind() != types.FieldVal {
					return false // a method called on a field
				}
			case *ast.IndexExpr:
				if n.X != p.Node() {
					break chain
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					return false
				}
				break chain
			case *ast.SliceExpr:
				if n.X == p.Node() {
					return false
				}
				break chain
			default:
				break chain
			}
			p = p.Parent()
		}
	}
	return true
}

// initialised reports whether an identifier is the receiver of a call of
// a method that only initialises it (initialisesOnly) and, where paths
// from it are tracked, hands none of them over (keepsPaths).
func (ch *checker) initialised(c inspector.Cursor, tracked map[*types.Var][]fieldPath) bool {
	info := ch.r.Pass.TypesInfo
	sel, ok := c.Parent().Node().(*ast.SelectorExpr)
	if !ok || sel.X != c.Node() {
		return false
	}
	call, ok := c.Parent().Parent().Node().(*ast.CallExpr)
	s := info.Selections[sel]
	if !ok || call.Fun != sel || s == nil || s.Kind() != types.MethodVal {
		return false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || !ch.initialisesOnly(fn) {
		return false
	}
	v, _ := info.Uses[c.Node().(*ast.Ident)].(*types.Var)
	return len(tracked[v]) == 0 || ch.keepsPaths(fn, tracked[v])
}
