package calls

import (
	"go/ast"
	"go/token"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"golang.org/x/tools/go/ast/inspector"
)

// Detached reports whether a function literal runs apart from the body
// that holds it: stored, returned or started as a goroutine. A literal
// run in place is analysed with the body around it, and one handed to a
// call (which may run it then) at that call; a detached one is analysed
// from its own entry, with nothing held. decl is the live body of the
// declaration that holds the literal.
func Detached(li *live.Info, lc inspector.Cursor, decl *live.Body) bool {
	owner := decl
	for e := range lc.Parent().Enclosing((*ast.FuncLit)(nil)) {
		owner = li.Lit(e.Node().(*ast.FuncLit))
		break
	}
	lit := lc.Node().(*ast.FuncLit)
	inline := false
	owner.Walk(func(_ *live.Step, e *live.Effect) {
		inline = inline || (e.Lit != nil && e.Lit.Node == lit)
	})
	return !inline && !owner.Passed(lit.Body.Pos())
}

// LastBefore returns the last call under decl, before pos in the source,
// that match accepts, or nil: where a body took the lock it holds at pos,
// for messages.
func LastBefore(decl inspector.Cursor, pos token.Pos, match func(*ast.CallExpr) bool) ast.Node {
	var last ast.Node
	for cc := range decl.Preorder((*ast.CallExpr)(nil)) {
		call := cc.Node().(*ast.CallExpr)
		if call.Pos() >= pos {
			break
		}
		if match(call) {
			last = call
		}
	}
	return last
}
