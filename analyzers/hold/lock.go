package hold

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/live"
)

// lockOp classifies a call as an operation on a lock.
type lockOp int

const (
	notLockOp lockOp = iota
	opLock
	opRLock
	opUnlock
	opRUnlock
)

var lockOps = map[string]lockOp{"Lock": opLock, "RLock": opRLock, "Unlock": opUnlock, "RUnlock": opRUnlock}

// lockRef is the lock a call operates on: the variable or field, and for a
// field, the variable the field is selected from (nil when unknown).
type lockRef struct {
	obj  types.Object
	base types.Object
}

// resolver identifies locks in one package.
type resolver struct {
	info *types.Info
	live *live.Info
}

// op returns the lock operation a call performs and on which lock.
func (r *resolver) op(call *ast.CallExpr) (lockOp, lockRef) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return notLockOp, lockRef{}
	}
	op := lockOps[sel.Sel.Name]
	selection := r.info.Selections[sel]
	if op == notLockOp || selection == nil || selection.Kind() != types.MethodVal {
		return notLockOp, lockRef{}
	}
	// A method promoted through embedded fields: the lock is the last
	// embedded field on the path (r.Lock() with r embedding sync.Mutex).
	if path := selection.Index(); len(path) > 1 {
		t := selection.Recv()
		var field *types.Var
		for _, i := range path[:len(path)-1] {
			st, ok := deref(t).Underlying().(*types.Struct)
			if !ok {
				return notLockOp, lockRef{}
			}
			field = st.Field(i)
			t = field.Type()
		}
		return op, lockRef{obj: field, base: r.baseOf(sel.X)}
	}
	return op, r.ref(sel.X)
}

// ref resolves the expression a lock method is called on.
func (r *resolver) ref(e ast.Expr) lockRef {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[e].(*types.Var)
		if !ok {
			return lockRef{}
		}
		if val := r.live.Value(v); val != nil && isPointer(r.info.TypeOf(e)) {
			if alias := r.ref(val); alias.obj != nil {
				return alias
			}
		}
		return lockRef{obj: v}
	case *ast.SelectorExpr:
		if s := r.info.Selections[e]; s != nil {
			if s.Kind() == types.FieldVal {
				return lockRef{obj: s.Obj(), base: r.baseOf(e.X)}
			}
			return lockRef{}
		}
		if v, ok := r.info.Uses[e.Sel].(*types.Var); ok { // pkg.Var
			return lockRef{obj: v}
		}
	case *ast.StarExpr:
		return r.ref(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.ref(e.X)
		}
	}
	return lockRef{}
}

// baseOf names the variable a field is selected from.
func (r *resolver) baseOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return r.info.Uses[e]
	case *ast.StarExpr:
		return r.baseOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.baseOf(e.X)
		}
	case *ast.SelectorExpr:
		if s := r.info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return s.Obj()
		}
	}
	return nil
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func isPointer(t types.Type) bool {
	_, ok := t.(*types.Pointer)
	if !ok && t != nil {
		_, ok = t.Underlying().(*types.Pointer)
	}
	return ok
}
