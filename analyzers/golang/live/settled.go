package live

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A package-level variable is settled when nothing writes it once the
// program is initialised, so that reading it touches nothing a lock
// protects (core.Settled). The front end calls a variable settled only
// where it sees every write the variable can have:
//
//   - an unexported variable of the package being analysed: only this
//     package can name it, and none of its code outside the variable's
//     declaration and the bodies of init functions writes it;
//   - a variable of type error, of any package, that this package does not
//     write outside those places (`return ErrClosed`, `return nil,
//     io.EOF`). Another package could assign an exported error variable,
//     but sentinel errors are compared by identity (errors.Is), so code
//     that reassigns one breaks every caller that tests for it; such a
//     write in another package is not seen (limit).
//
// A write is an assignment to the variable or to a part of its value (a
// field, an array element), an increment, a range clause that assigns it,
// taking its address or slicing it (the address may be written through
// later), or calling a method with a pointer receiver on it. A write
// inside a function literal counts even in init: the literal may run
// later. Writes through //go:linkname, unsafe or assembly are not seen
// (limit).

// writtenGlobals returns the package-level variables, of any package,
// that this package writes outside their declarations and the bodies of
// its init functions.
func writtenGlobals(pass *analysis.Pass, in *inspector.Inspector) map[*types.Var]bool {
	written := map[*types.Var]bool{}
	info := pass.TypesInfo
	in.WithStack([]ast.Node{(*ast.Ident)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		v, ok := info.Uses[n.(*ast.Ident)].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || written[v] {
			return true
		}
		if inInit(stack) || !writes(info, stack) {
			return true
		}
		written[v] = true
		return true
	})
	return written
}

// inInit reports whether the innermost function around the node on top of
// stack is an init function of the package, not a literal inside one.
func inInit(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.FuncDecl:
			return f.Recv == nil && f.Name.Name == "init"
		}
	}
	return false
}

// writes reports whether the identifier on top of stack is written: the
// variable's value, or a part of it, is the operand of a write.
func writes(info *types.Info, stack []ast.Node) bool {
	// Climb from the identifier through the expressions that denote the
	// same variable or a part of it: a package qualifier, parentheses,
	// fields of a struct value, elements of an array value.
	i := len(stack) - 1
	x := stack[i].(ast.Expr)
	for i > 0 {
		switch p := stack[i-1].(type) {
		case *ast.ParenExpr:
		case *ast.SelectorExpr:
			sel := info.Selections[p]
			if p.Sel == x && sel == nil {
				break // a qualified identifier, pkg.V
			}
			if p.X != x || sel == nil || sel.Kind() != types.FieldVal || isPointer(info.TypeOf(x)) {
				goto climbed
			}
		case *ast.IndexExpr:
			if p.X != x || !isArray(info.TypeOf(x)) {
				goto climbed
			}
		default:
			goto climbed
		}
		x = stack[i-1].(ast.Expr)
		i--
	}
climbed:
	if i == 0 {
		return false
	}
	switch p := stack[i-1].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == x {
				return true
			}
		}
	case *ast.IncDecStmt:
		return p.X == x
	case *ast.RangeStmt:
		return p.Tok == token.ASSIGN && (p.Key == x || p.Value == x)
	case *ast.UnaryExpr:
		return p.Op == token.AND && p.X == x
	case *ast.SliceExpr:
		return p.X == x && isArray(info.TypeOf(x))
	case *ast.SelectorExpr:
		// A method with a pointer receiver called on the variable takes
		// its address.
		sel := info.Selections[p]
		if p.X != x || sel == nil || sel.Kind() != types.MethodVal || isPointer(info.TypeOf(x)) {
			return false
		}
		fn, ok := sel.Obj().(*types.Func)
		return ok && fn.Signature().Recv() != nil && isPointer(fn.Signature().Recv().Type())
	}
	return false
}

// isPointer reports whether t is a pointer type.
func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// isArray reports whether t is an array type (not a pointer to one).
func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// Settled reports whether v is a package-level variable that nothing
// writes once the program is initialised, as far as this package shows
// (see writtenGlobals): reading it is no work.
func (in *Info) Settled(v *types.Var) bool {
	if in == nil || v == nil || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || in.written[v] {
		return false
	}
	if v.Pkg() == in.pass.Pkg && !v.Exported() {
		return true
	}
	return types.Identical(v.Type(), types.Universe.Lookup("error").Type())
}
