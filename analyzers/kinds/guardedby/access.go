package guardedby

import (
	"strings"

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
	// passed: a read that hands the field's value to a call (an argument,
	// or the receiver of a method): what it holds may be written there.
	passed bool
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
		if lengthOnly(info, cur) {
			continue
		}
		a := &access{sel: sel}
		a.write, a.how = ch.isWrite(cur)
		a.passed = passedOn(info, cur)
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
// the receiver of a method with a pointer receiver that may change it
// (any but one of the package that readsOnlyCall shows only reads).
// Every other use is a read.
func (ch *checker) isWrite(cur inspector.Cursor) (bool, string) {
	return writeAt(ch.r.Pass.TypesInfo, cur, ch.readsOnlyCall)
}

// writeAt is isWrite with the test of a method call on the field given:
// readsOnly says whether the call at the cursor of its selector, of a
// method with a pointer receiver, only reads its receiver; nil counts
// every such call as a write (the mutant generator's conservative view,
// which has no summaries of the package's functions).
func writeAt(info *types.Info, cur inspector.Cursor, readsOnly func(inspector.Cursor, *types.Func) bool) (bool, string) {
	child := cur.Node()
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
					if strings.HasPrefix(n.Sel.Name, "Load") {
						return false, atomicOp
					}
					return true, "an atomic " + n.Sel.Name
				}
				fn := s.Obj().(*types.Func)
				if _, ptr := fn.Signature().Recv().Type().(*types.Pointer); ptr && !isPointer(info.TypeOf(n.X)) && (readsOnly == nil || !readsOnly(p, fn)) {
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
				if isAtomic(info.TypeOf(n.X)) {
					// &x.counts[i] of an atomic type: its only
					// operations are the atomic methods.
					return false, atomicOp
				}
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
				switch b := builtin(info, n); b {
				case "delete", "append", "clear":
					return true, b
				}
			}
			return false, ""
		default:
			return false, ""
		}
		child = p.Node()
	}
}

// atomicOp marks an atomic load of the field (a Load method of a
// sync/atomic type): it races with nothing, so it needs no lock. The
// other atomic operations (Store, Swap, CompareAndSwap, Add) are writes,
// made under the lock: the field is written under it and loaded without
// it, the pattern of a value checked without the lock and filled under it.
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

// lengthOnly reports whether the selection of an array field at cur only
// takes its length, a constant: len or cap of it, or a range over it that
// binds no element. No memory is read.
func lengthOnly(info *types.Info, cur inspector.Cursor) bool {
	sel := cur.Node().(ast.Expr)
	t := info.TypeOf(sel)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Array); !ok {
		return false
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.RangeStmt:
		return p.X == sel && p.Value == nil
	case *ast.CallExpr:
		b := builtin(info, p)
		return b == "len" || b == "cap"
	}
	return false
}

// passedOn reports whether the selection at cur is an argument of a call
// (of a function, not a builtin other than copy's destination) or the
// receiver of a method call.
func passedOn(info *types.Info, cur inspector.Cursor) bool {
	sel := cur.Node()
	switch p := cur.Parent().Node().(type) {
	case *ast.CallExpr:
		if b := builtin(info, p); b != "" {
			// Builtins write only what isWrite counts (delete, append,
			// clear) and copy's destination.
			return b == "copy" && len(p.Args) > 0 && p.Args[0] == sel
		}
		for _, a := range p.Args {
			if a == sel {
				return true
			}
		}
	case *ast.SelectorExpr:
		s := info.Selections[p]
		return s != nil && s.Kind() == types.MethodVal
	}
	return false
}
