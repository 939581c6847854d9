package locks

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core"
	"golang.org/x/tools/go/types/typeutil"
)

// The Go front end's description of a call for core.CallValue. The
// owner of a lock is the package that declares it: the package of the
// type whose field it is, or of the variable. A function of that
// package, a method of its types included, may touch what the lock
// protects; a function of another package can reach it only through its
// arguments, so it is harmless when every argument (the receiver
// included) is a constant or a local of a type that holds no pointer.
// What another package keeps of its own (a logger's buffer, a metrics
// registry) is not the lock's to protect. A callback that another
// package calls back into the owner's (an http.Handler, a sql.Driver
// registered earlier) is not seen: such a call passes a value of an
// interface or function type, or a named type of the owner's package with
// methods, and both count as sharing.

// call describes a call: what it may run, its arguments' values and
// whether one may carry a pointer into shared state.
func (f *Followed) call(c *ast.CallExpr) core.Call {
	info := f.Res.Info
	out := core.Call{Target: core.Unknown}
	if fn := typeutil.StaticCallee(info, c); fn != nil && fn.Pkg() != nil {
		out.Target = core.Elsewhere
		if fn.Pkg() == f.Lock.Pkg() {
			out.Target = core.Owner
		}
	}
	args := c.Args
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			args = append([]ast.Expr{sel.X}, args...) // the receiver is an argument
		}
	}
	for _, a := range args {
		out.Args = append(out.Args, f.value(a))
		if tv := info.Types[a]; tv.Value == nil && !f.pointerFree(tv.Type, map[types.Type]bool{}) {
			out.Shares = true
		}
	}
	return out
}

// pointerFree reports whether a value of type t carries no pointer, so
// that a function handed a copy of it cannot reach shared memory through
// it: booleans, numbers, strings (immutable), and arrays and structs of
// those. A named type of the lock's package with methods does not count:
// a function of another package may call them on it (fmt calls String).
func (f *Followed) pointerFree(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return true
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == f.Lock.Pkg() && n.NumMethods() > 0 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer && u.Kind() != types.UntypedNil && u.Kind() != types.Invalid
	case *types.Array:
		return f.pointerFree(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if !f.pointerFree(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}
