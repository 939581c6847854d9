package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// Read-only package variables (point 10a of the after-unlock rule): the
// corpus rule's own reading of the point, kept apart from guardlint's so
// that the rule does not judge guardlint by guardlint's code.

// readOnlyWrites caches, per package, the package-level variables the
// package writes outside their declarations and init functions.
var readOnlyWrites = map[*packages.Package]map[*types.Var]bool{}

// readOnly reports whether id names a read-only package variable of
// point 10a (and 23), seen from the picked function's package p.
func readOnly(p *packages.Package, id *ast.Ident) bool {
	v, ok := p.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return false
	}
	if v.Pkg() != p.Types || v.Exported() {
		if !errorValue(v.Type()) {
			return false
		}
	}
	w, ok := readOnlyWrites[p]
	if !ok {
		w = packageWrites(p)
		readOnlyWrites[p] = w
	}
	return !w[v]
}

// errorValue reports whether a variable's type makes it an error value
// that point 10a allows from any package: the type error itself, or (point
// 23) a type that is not an interface and implements error.
func errorValue(t types.Type) bool {
	errType := types.Universe.Lookup("error").Type()
	if types.Identical(t, errType) {
		return true
	}
	return !types.IsInterface(t) && types.Implements(t, errType.Underlying().(*types.Interface))
}

// packageWrites finds the package-level variables that p writes, in any
// of its files, outside their declarations and the bodies of its init
// functions (function literals inside them included).
func packageWrites(p *packages.Package) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	info := p.TypesInfo
	for _, f := range p.Syntax {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := info.Uses[id].(*types.Var)
			if ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && !initBody(stack) && written(info, stack) {
				out[v] = true
			}
			return true
		})
	}
	return out
}

// initBody reports whether the innermost function around the top of
// stack is an init function, not a function literal.
func initBody(stack []ast.Node) bool {
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

// written reports whether the identifier on top of stack, or the part of
// its variable that the expressions around it select (pkg.V, a field of
// a struct value, an element of an array value, parentheses), is
// assigned, incremented, assigned by a range clause, addressed, sliced,
// or the receiver of a method with a pointer receiver.
func written(info *types.Info, stack []ast.Node) bool {
	i := len(stack) - 1
	x := stack[i]
	for ; i > 0; i-- {
		up := stack[i-1]
		switch up := up.(type) {
		case *ast.ParenExpr:
		case *ast.SelectorExpr:
			sel := info.Selections[up]
			qualified := sel == nil && up.Sel == x // pkg.V
			valueField := sel != nil && up.X == x && sel.Kind() == types.FieldVal && !pointer(info.TypeOf(up.X))
			if !qualified && !valueField {
				return writes(info, up, x)
			}
		case *ast.IndexExpr:
			if up.X != x || !array(info.TypeOf(up.X)) {
				return writes(info, up, x)
			}
		default:
			return writes(info, up, x)
		}
		x = up
	}
	return false
}

// writes reports whether the node up writes its operand x.
func writes(info *types.Info, up, x ast.Node) bool {
	switch up := up.(type) {
	case *ast.AssignStmt:
		for _, l := range up.Lhs {
			if l == x {
				return true
			}
		}
	case *ast.IncDecStmt:
		return up.X == x
	case *ast.RangeStmt:
		return up.Tok == token.ASSIGN && (up.Key == x || up.Value == x)
	case *ast.UnaryExpr:
		return up.Op == token.AND && up.X == x
	case *ast.SliceExpr:
		return up.X == x && array(info.TypeOf(up.X))
	case *ast.SelectorExpr:
		sel := info.Selections[up]
		if up.X != x || sel == nil || sel.Kind() != types.MethodVal || pointer(info.TypeOf(up.X)) {
			return false
		}
		recv := sel.Obj().(*types.Func).Signature().Recv()
		return recv != nil && pointer(recv.Type())
	}
	return false
}

// pointer reports whether t is a pointer type.
func pointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// array reports whether t is an array type.
func array(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}
