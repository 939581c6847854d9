// Package locks identifies operations on sync.Mutex and sync.RWMutex
// values through go/types, for the rule analyzers that follow a lock
// (hold, requires): which call locks or unlocks, in which mode, and which
// variable or field the lock is.
package locks

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/live"
)

// Op classifies a call as an operation on a lock.
type Op int

// The lock operations.
const (
	None Op = iota
	Lock
	RLock
	Unlock
	RUnlock
)

var ops = map[string]Op{"Lock": Lock, "RLock": RLock, "Unlock": Unlock, "RUnlock": RUnlock}

// Ref is the lock a call operates on: the variable or field, and for a
// field, the variable the field is selected from (nil when unknown).
type Ref struct {
	Obj  types.Object
	Base types.Object
	// Holder is, for a method promoted from a mutex embedded in a struct
	// (c.out.Lock() where out's type embeds sync.Mutex), the lock as
	// people name it: the variable or field that holds the struct (out),
	// with its own base.
	Holder, HolderBase types.Object
	// Owner is, for a field, the type it is a field of: the struct that
	// declares it, also when it is reached through embedded fields
	// (orderedConsumer for the Mutex embedded in it), so that the field
	// can be named (T).f.
	Owner types.Type
}

// Is reports whether the lock is v, named as the mutex itself or as the
// variable or field that embeds it; base is the variable the matching
// field is selected from.
func (r Ref) Is(v types.Object) (ok bool, base types.Object) {
	switch {
	case v == nil:
	case r.Obj == v:
		return true, r.Base
	case r.Holder == v:
		return true, r.HolderBase
	}
	return false, nil
}

// Resolver identifies locks in one package.
type Resolver struct {
	Info *types.Info
	Live *live.Info
}

// Op returns the lock operation a call performs and on which lock. A
// method value of Lock or Unlock bound once to a local and called through
// it (lock := mu.Lock; lock()) is that operation.
func (r *Resolver) Op(call *ast.CallExpr) (Op, Ref) {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if v, ok := r.Info.Uses[id].(*types.Var); ok {
			if val, ok := r.Live.Value(v).(*ast.SelectorExpr); ok {
				fun = val
			}
		}
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return None, Ref{}
	}
	op := ops[sel.Sel.Name]
	selection := r.Info.Selections[sel]
	if op == None || selection == nil || selection.Kind() != types.MethodVal {
		return None, Ref{}
	}
	// A method promoted through embedded fields: the lock is the last
	// embedded field on the path (r.Lock() with r embedding sync.Mutex).
	if path := selection.Index(); len(path) > 1 {
		t := selection.Recv()
		var field *types.Var
		for _, i := range path[:len(path)-1] {
			st, ok := Deref(t).Underlying().(*types.Struct)
			if !ok {
				return None, Ref{}
			}
			field = st.Field(i)
			t = field.Type()
		}
		holder := r.Ref(sel.X)
		return op, Ref{Obj: field, Base: r.baseOf(sel.X), Holder: holder.Obj, HolderBase: holder.Base, Owner: fieldOwner(selection.Recv(), path[:len(path)-2])}
	}
	return op, r.Ref(sel.X)
}

// Ref resolves the expression a lock method is called on.
func (r *Resolver) Ref(e ast.Expr) Ref {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := r.Info.Uses[e].(*types.Var)
		if !ok {
			return Ref{}
		}
		if val := r.Live.Value(v); val != nil && (isPointer(r.Info.TypeOf(e)) || types.IsInterface(r.Info.TypeOf(e))) {
			if alias := r.Ref(val); alias.Obj != nil {
				return alias
			}
		}
		return Ref{Obj: v}
	case *ast.SelectorExpr:
		if s := r.Info.Selections[e]; s != nil {
			if s.Kind() == types.FieldVal {
				return Ref{Obj: s.Obj(), Base: r.baseOf(e.X), Owner: fieldOwner(s.Recv(), s.Index()[:len(s.Index())-1])}
			}
			return Ref{}
		}
		if v, ok := r.Info.Uses[e.Sel].(*types.Var); ok { // pkg.Var
			return Ref{Obj: v}
		}
	case *ast.StarExpr:
		return r.Ref(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.Ref(e.X)
		}
	}
	return Ref{}
}

// MutexOp is Op for the calls of sync.Mutex's and sync.RWMutex's own
// methods, called on the mutex or promoted from one embedded in a struct:
// the lock operations guardlint suggest proposes invariants from, read
// as the rules read them.
func (r *Resolver) MutexOp(call *ast.CallExpr) (Op, Ref) {
	op, ref := r.Op(call)
	if op == None || ref.Obj == nil || !IsMutex(ref.Obj.Type()) {
		return None, Ref{}
	}
	return op, ref
}

// fieldOwner is the type that declares the field at the end of an
// embedding path: recv, or the embedded struct the path leads through
// (path is the selection's index without its last element).
func fieldOwner(recv types.Type, path []int) types.Type {
	t := recv
	for _, i := range path {
		st, ok := Deref(t).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		t = st.Field(i).Type()
	}
	return Deref(t)
}

// baseOf names the variable a field is selected from.
func (r *Resolver) baseOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return r.Info.Uses[e]
	case *ast.StarExpr:
		return r.baseOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.baseOf(e.X)
		}
	case *ast.SelectorExpr:
		if s := r.Info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return s.Obj()
		}
	}
	return nil
}

// Deref returns the element type of a pointer type, else t.
func Deref(t types.Type) types.Type {
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

// Receiver returns the receiver variable of a method declaration, or nil.
func Receiver(info *types.Info, decl *ast.FuncDecl) types.Object {
	if decl.Recv == nil || len(decl.Recv.List) == 0 || len(decl.Recv.List[0].Names) == 0 {
		return nil
	}
	return info.Defs[decl.Recv.List[0].Names[0]]
}

// SameNamed reports whether recv (or what it points to) is the named type
// owner, generic instances counted as their origin.
func SameNamed(recv, owner types.Type) bool {
	a, _ := types.Unalias(Deref(recv)).(*types.Named)
	b, _ := types.Unalias(owner).(*types.Named)
	return a != nil && b != nil && a.Origin() == b.Origin()
}

// IsMutex reports whether t is sync.Mutex or sync.RWMutex, or a pointer
// to one: a lock whose Lock and Unlock calls name it.
func IsMutex(t types.Type) bool {
	n, ok := types.Unalias(Deref(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}
