package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A key names the value a field is selected from, so that the access
// x.peers and the lock operation x.mu.Lock() can be matched: the chain
// of variables, fields and constant indices the expression is, each
// variable by its declaration (two variables of one name in nested
// scopes are two keys). A local pointer bound once to another variable
// (p := r) is that variable. An expression whose value the key cannot
// follow (a call's result, an index by a variable) has no key: no lock
// is known to be held for it.
func (ch *checker) key(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := ch.r.Pass.TypesInfo.Uses[e]
		if obj == nil {
			obj = ch.r.Pass.TypesInfo.Defs[e]
		}
		v, ok := obj.(*types.Var)
		if !ok {
			return ""
		}
		if val := ch.r.Live.Value(v); val != nil && isPointer(v.Type()) {
			if k := ch.key(val); k != "" {
				return k
			}
		}
		return keyOfVar(v)
	case *ast.StarExpr:
		return ch.key(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return ch.key(e.X)
		}
	case *ast.SelectorExpr:
		if s := ch.r.Pass.TypesInfo.Selections[e]; s != nil {
			if s.Kind() != types.FieldVal {
				return ""
			}
			if s.Obj().(*types.Var).Embedded() {
				// x.common.mu is x.mu: the embedded struct's fields
				// are the value's own.
				return ch.key(e.X)
			}
			if k := ch.key(e.X); k != "" {
				return k + "." + e.Sel.Name
			}
			return ""
		}
		// pkg.Var
		if v, ok := ch.r.Pass.TypesInfo.Uses[e.Sel].(*types.Var); ok {
			return fmt.Sprintf("%s.%s@%d", v.Pkg().Path(), v.Name(), v.Pos())
		}
	case *ast.IndexExpr:
		if tv, ok := ch.r.Pass.TypesInfo.Types[e.Index]; ok && tv.Value != nil {
			if k := ch.key(e.X); k != "" {
				return k + "[" + tv.Value.ExactString() + "]"
			}
		}
	}
	return ""
}

// lockKey is the key of the value whose lock a lock operation takes or
// gives up: x for x.mu.Lock(), x.Lock() (a mutex embedded in x's type),
// and for a bound method value or a pointer alias of x.mu.
func (ch *checker) lockKey(c *contract, call *ast.CallExpr) string {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if v, ok := ch.r.Pass.TypesInfo.Uses[id].(*types.Var); ok {
			fun = ast.Unparen(ch.r.Live.Value(v))
		}
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	return ch.lockHolder(c, sel.X)
}

// lockHolder strips the lock from an expression that is the lock or a
// value embedding it, and returns the key of the value that holds it.
func (ch *checker) lockHolder(c *contract, x ast.Expr) string {
	switch e := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if s := ch.r.Pass.TypesInfo.Selections[e]; s != nil && s.Kind() == types.FieldVal && s.Obj() == c.lock {
			return ch.key(e.X)
		}
	case *ast.Ident:
		if v, ok := ch.r.Pass.TypesInfo.Uses[e].(*types.Var); ok && isPointer(v.Type()) {
			// A pointer bound once is its value, as key has it; but a
			// value key cannot follow (l := s.levels[i]) leaves the
			// variable itself as the key, here as there, or l.RLock()
			// would hold the lock of no value while l.tables is keyed
			// by l.
			if val := ch.r.Live.Value(v); val != nil {
				if k := ch.lockHolder(c, val); k != "" {
					return k
				}
			}
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return ch.lockHolder(c, e.X)
		}
	case *ast.StarExpr:
		return ch.lockHolder(c, e.X)
	}
	// A value whose type embeds the lock: x.Lock().
	return ch.key(x)
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// keyOfVar is the key of a variable itself.
func keyOfVar(v *types.Var) string { return fmt.Sprintf("%s@%d", v.Name(), v.Pos()) }
