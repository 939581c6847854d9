package locks

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/invariants"
)

// Change is what one effect does to a followed lock.
type Change int

// Changes.
const (
	Keeps     Change = iota
	Acquires         // takes the lock in the followed mode
	Releases         // gives it up
	OtherMode        // takes it in the mode the rule does not ask for
)

// Followed is a lock a rule follows through a body: the variable or field,
// the mode the rule asks for, and the helpers whose call takes it.
type Followed struct {
	Res  *Resolver
	Lock *types.Var
	// Owner is, for a field lock, the struct type declaring the field.
	Owner   types.Type
	Mode    invariants.LockMode
	Helpers []*types.Func
	// Releasers are functions whose call gives the lock up (cr.unlock()
	// around cr.mu.Unlock()). The rules find their own (hold's releases,
	// guarded_by's helpers); the prover names them so that a revert
	// finds the deferred release of a lock a helper took.
	Releasers []*types.Func
}

// Change classifies an effect. recv is the receiver of the method being
// analysed, or nil: for a field lock in a method of its type, the same
// field of another value is another lock.
func (f *Followed) Change(e *live.Effect, recv types.Object) Change {
	if e.Callee != nil && slices.Contains(f.Helpers, e.Callee) {
		return Acquires
	}
	if e.Callee != nil && slices.Contains(f.Releasers, e.Callee) {
		return Releases
	}
	if e.Call == nil {
		return Keeps
	}
	op, ref := f.Res.Op(e.Call)
	is, base := ref.Is(f.Lock)
	if op == None || !is {
		return Keeps
	}
	if f.Owner != nil && recv != nil && base != recv && SameNamed(recv.Type(), f.Owner) {
		return Keeps
	}
	shared := f.Mode == invariants.Shared
	switch op {
	case Lock:
		if shared {
			return OtherMode
		}
		return Acquires
	case RLock:
		if !shared {
			return OtherMode
		}
		return Acquires
	}
	return Releases
}

// Step describes a live step for core.DoesWork: the Go front end's half
// of the one definition of work.
func (f *Followed) Step(s *live.Step, recv types.Object) core.Step {
	switch n := s.Node.(type) {
	case *ast.EmptyStmt:
		return core.Step{Kind: core.Empty}
	case *ast.DeferStmt:
		st := core.Step{Kind: core.Defer, Values: f.values(n.Call.Args)}
		for _, e := range s.Effects {
			if !e.Deferred {
				st.Values = append(st.Values, core.Computed) // an argument computed now calls something
			}
		}
		if sel, ok := ast.Unparen(n.Call.Fun).(*ast.SelectorExpr); ok && f.Res.Info.Selections[sel] != nil {
			st.Values = append(st.Values, f.value(sel.X)) // the receiver is evaluated now
		}
		return st
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && f.isBuiltin(call.Fun, "panic") {
			return core.Step{Kind: core.Return, Values: f.values(call.Args)}
		}
		if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && f.plainCall(s, recv) {
			return core.Step{Kind: core.Drop, Values: []core.Value{f.value(call)}}
		}
		kind := core.Other
		for _, e := range s.Effects {
			switch {
			case e.Lit != nil && !e.Deferred:
				if kind == core.Other {
					kind = core.Inline
				}
			case f.Change(e, recv) == Acquires || f.Change(e, recv) == Releases:
				kind = core.LockOp
			default:
				return core.Step{Kind: core.Other}
			}
		}
		return core.Step{Kind: kind}
	case *ast.ReturnStmt:
		return core.Step{Kind: core.Return, Values: f.values(n.Results)}
	case ast.Expr:
		return core.Step{Kind: core.Condition, Values: f.values([]ast.Expr{n})}
	case *ast.ValueSpec:
		return core.Step{Kind: core.Declaration, Values: f.values(n.Values)}
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE || f.allLocal(n.Lhs) {
			st := core.Step{Kind: core.Declaration, Values: f.values(n.Rhs)}
			if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
				st.Values = append(st.Values, f.values(n.Lhs)...) // x += y reads x
			}
			return st
		}
	case *ast.IncDecStmt:
		if f.allLocal([]ast.Expr{n.X}) {
			return core.Step{Kind: core.Declaration, Values: []core.Value{core.Local}}
		}
	}
	return core.Step{Kind: core.Other}
}

// plainCall reports whether a step's effects are neither an operation on
// the lock nor a literal run in place: its call is judged by its value.
func (f *Followed) plainCall(s *live.Step, recv types.Object) bool {
	for _, e := range s.Effects {
		if e.Lit != nil || f.Change(e, recv) != Keeps {
			return false
		}
	}
	return true
}

// values describes what computing each expression involves.
func (f *Followed) values(es []ast.Expr) []core.Value {
	out := make([]core.Value, len(es))
	for i, e := range es {
		out[i] = f.value(e)
	}
	return out
}

// value describes what computing one expression involves: a call is
// described for core.CallValue, and an operator, conversion or composite
// literal over calls is as its worst operand.
func (f *Followed) value(e ast.Expr) core.Value {
	switch {
	case f.Res.Info.Types[e].Value != nil:
		return core.Constant
	case f.isLockAddress(e):
		return core.LockAddress
	case f.local(e):
		return core.Local
	case f.reads(e, true):
		return core.Settled
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if f.Res.Info.Types[e.Fun].IsType() && len(e.Args) == 1 {
			return f.value(e.Args[0]) // a conversion
		}
		return core.CallValue(f.call(e))
	case *ast.BinaryExpr:
		return core.Worse(f.value(e.X), f.value(e.Y))
	case *ast.SliceExpr:
		// Slicing reads no element: `strconv.Itoa(n)[1:]` is as the call
		// and its indices. A slice of shared memory is as that memory.
		v := f.value(e.X)
		for _, ix := range []ast.Expr{e.Low, e.High, e.Max} {
			if ix != nil {
				v = core.Worse(v, f.value(ix))
			}
		}
		return v
	case *ast.UnaryExpr:
		if e.Op != token.ARROW {
			return f.value(e.X)
		}
	case *ast.CompositeLit:
		// Building a value computes its elements and touches nothing
		// else: `&Error{msg: fmt.Sprintf("no stream %d", id)}` is as its
		// worst element.
		v := core.Constant
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if _, isField := f.Res.Info.Uses[identOf(kv.Key)].(*types.Var); !isField {
					v = core.Worse(v, f.value(kv.Key))
				}
				elt = kv.Value
			}
			v = core.Worse(v, f.value(elt))
		}
		return v
	}
	return core.Computed
}

// local reports whether computing e reads only the function's locals and
// parameters (not what they point to), constants and literals, and calls
// nothing but conversions and the builtins that only compute (len, cap,
// min, max, new, make, complex, real, imag); *new(T) is a fresh zero
// value.
func (f *Followed) local(e ast.Expr) bool { return f.reads(e, false) }

// reads reports whether computing e reads only what local allows and,
// when settled is true, also package-level variables that nothing writes
// once the program is initialised (live.Info.Settled).
func (f *Followed) reads(e ast.Expr, settled bool) bool {
	info := f.Res.Info
	local := func(e ast.Expr) bool { return f.reads(e, settled) }
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return true // a literal; a closure created, not run
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Var:
			return IsLocal(obj) || settled && f.Res.Live.Settled(obj)
		case *types.Nil, *types.Const, *types.Func, *types.TypeName, *types.Builtin:
			return true
		}
		return e.Name == "_"
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
				if _, isField := info.Uses[identOf(kv.Key)].(*types.Var); !isField && !local(kv.Key) {
					return false
				}
			}
			if !local(elt) {
				return false
			}
		}
		return true
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && local(e.X)
	case *ast.BinaryExpr:
		return local(e.X) && local(e.Y)
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			return !sel.Indirect() && local(e.X) // a field of a local struct value, not through a pointer
		}
		return local(e.Sel) // pkg.Name
	case *ast.IndexExpr:
		switch t := info.TypeOf(e.X); {
		case t == nil:
		case info.Types[e.X].IsValue():
			switch u := t.Underlying().(type) {
			case *types.Array:
				return local(e.X) && local(e.Index)
			case *types.Basic:
				return u.Info()&types.IsString != 0 && local(e.X) && local(e.Index)
			}
			return false // a slice, a map or a pointer: shared memory
		default:
			return true // an instantiation: F[T]
		}
	case *ast.IndexListExpr:
		return true // an instantiation: F[K, V]
	case *ast.SliceExpr:
		for _, x := range []ast.Expr{e.X, e.Low, e.High, e.Max} {
			if x != nil && !local(x) {
				return false
			}
		}
		return true
	case *ast.TypeAssertExpr:
		return local(e.X)
	case *ast.StarExpr:
		// *new(T), T's zero value: new allocates a variable nothing else
		// can reach. Any other indirection reads memory a pointer leads to.
		call, ok := ast.Unparen(e.X).(*ast.CallExpr)
		return ok && f.isBuiltin(call.Fun, "new")
	case *ast.CallExpr:
		if info.Types[e.Fun].IsType() {
			return len(e.Args) == 1 && local(e.Args[0]) // a conversion
		}
		for _, name := range []string{"len", "cap", "min", "max", "new", "make", "complex", "real", "imag"} {
			if f.isBuiltin(e.Fun, name) {
				for _, a := range e.Args {
					if !info.Types[a].IsType() && !local(a) {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// allLocal reports whether every expression names a local or is blank.
func (f *Followed) allLocal(es []ast.Expr) bool {
	for _, e := range es {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		if v, ok := f.Res.Info.Uses[id].(*types.Var); id.Name != "_" && (!ok || !IsLocal(v)) {
			return false
		}
	}
	return true
}

// isBuiltin reports whether fun names the builtin function name.
func (f *Followed) isBuiltin(fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := f.Res.Info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// IsLocal reports whether v is a local variable, parameter or result of
// a function, not a field or a package-level variable.
func IsLocal(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope()
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// isLockAddress reports whether e is &lock, or a method value of the lock
// (mu.Lock): computing either touches nothing the lock protects.
func (f *Followed) isLockAddress(e ast.Expr) bool {
	var x ast.Expr
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			x = e.X
		}
	case *ast.SelectorExpr:
		if sel := f.Res.Info.Selections[e]; sel != nil && sel.Kind() == types.MethodVal {
			x = e.X
		}
	}
	if x == nil {
		return false
	}
	is, _ := f.Res.Ref(x).Is(f.Lock)
	return is
}

// DoesWork reports whether a live step does work the lock must cover.
func (f *Followed) DoesWork(s *live.Step, recv types.Object) bool {
	return core.DoesWork(f.Step(s, recv))
}
