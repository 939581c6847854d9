package live

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// singleAssignments finds local variables given a value at their
// definition and never assigned again nor addressed. A call through such a
// variable bound to a literal runs that literal, and a lock reached through
// such a pointer (p := &mu) is that lock.
func singleAssignments(pass *analysis.Pass, in *inspector.Inspector) map[*types.Var]ast.Expr {
	bound := map[*types.Var]ast.Expr{}
	spoiled := map[*types.Var]bool{}
	def := func(id *ast.Ident, rhs ast.Expr) {
		if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok {
			bound[v] = ast.Unparen(rhs)
		}
	}
	spoil := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
				spoiled[v] = true
			}
		}
	}
	filter := []ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)}
	in.Preorder(filter, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					if id, ok := lhs.(*ast.Ident); ok && pass.TypesInfo.Defs[id] != nil {
						def(id, n.Rhs[i])
						continue
					}
				}
				spoil(lhs)
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, id := range n.Names {
					def(id, n.Values[i])
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				spoil(n.X)
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				spoil(n.Key)
				if n.Value != nil {
					spoil(n.Value)
				}
			}
		}
	})
	for v := range spoiled {
		delete(bound, v)
	}
	// Package-level variables can be reassigned from anywhere.
	for v := range bound {
		if v.Parent() == v.Pkg().Scope() {
			delete(bound, v)
		}
	}
	return bound
}
