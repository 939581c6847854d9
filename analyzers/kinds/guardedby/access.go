package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// access is one read or write of a guarded field.
type access struct {
	sel   *ast.SelectorExpr // x.f
	write bool
	how   string       // for a write that is not an assignment: "delete", "append", ...
	lit   *ast.FuncLit // the innermost literal around it, or nil
}

// verb words the access for messages.
func (a *access) verb() string {
	if a.write {
		return "writes"
	}
	return "reads"
}

// need is the level the access needs under c.
func (a *access) need(c *contract) level {
	if a.write {
		return exclusive
	}
	return c.reads
}

// accesses lists the reads and writes of c's field under a declaration,
// its literals included.
func (ch *checker) accesses(c *contract, decl inspector.Cursor) []*access {
	var out []*access
	info := ch.r.Pass.TypesInfo
	for cur := range decl.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal || s.Obj().(*types.Var).Origin() != c.field {
			continue
		}
		a := &access{sel: sel}
		a.write, a.how = ch.isWrite(cur)
		for e := range cur.Enclosing((*ast.FuncLit)(nil)) {
			a.lit = e.Node().(*ast.FuncLit)
			break
		}
		out = append(out, a)
	}
	return out
}

// isWrite says whether the selection at cur changes the field or what it
// holds: it, or an element, field or pointee reached from it, is assigned,
// incremented or has its address taken (conservatively: the address lets
// anything write); it is the map of a delete, the slice of an append, or
// the receiver of a method with a pointer receiver (which may change it).
// Every other use is a read.
func (ch *checker) isWrite(cur inspector.Cursor) (bool, string) {
	info := ch.r.Pass.TypesInfo
	var child ast.Node = cur.Node()
	for p := cur.Parent(); ; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ParenExpr, *ast.StarExpr:
		case *ast.IndexExpr:
			if n.X != child {
				return false, ""
			}
		case *ast.IndexListExpr:
			return false, ""
		case *ast.SelectorExpr:
			s := info.Selections[n]
			if s == nil {
				return false, ""
			}
			if s.Kind() == types.MethodVal {
				if isAtomic(s.Recv()) {
					return false, atomicOp
				}
				if _, ptr := s.Obj().(*types.Func).Signature().Recv().Type().(*types.Pointer); ptr && !isPointer(info.TypeOf(n.X)) {
					return true, "a call of " + n.Sel.Name + ", whose receiver is a pointer"
				}
				return false, ""
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if l == child {
					return true, ""
				}
			}
			return false, ""
		case *ast.IncDecStmt:
			return true, ""
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				return true, "taking its address"
			}
			return false, ""
		case *ast.RangeStmt:
			if n.Key == child || n.Value == child {
				return true, ""
			}
			return false, ""
		case *ast.CallExpr:
			if len(n.Args) > 0 && n.Args[0] == child {
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
					if b, ok := info.Uses[id].(*types.Builtin); ok {
						switch b.Name() {
						case "delete", "append", "clear":
							return true, b.Name()
						}
					}
				}
			}
			return false, ""
		default:
			return false, ""
		}
		child = p.Node()
	}
}

// atomicOp marks a call of a method of a sync/atomic type on the field:
// an atomic operation races with nothing, so it needs no lock (the lock
// of a field written under it and loaded atomically orders other state,
// which its own fields' invariants say).
const atomicOp = "atomic"

// isAtomic reports whether t is a type of sync/atomic (atomic.Int64,
// atomic.Value, atomic.Pointer[T]) or a pointer to one.
func isAtomic(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic"
}
