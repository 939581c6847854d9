package neveracquires

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/types/typeutil"
)

// Mutants implements mutate.Rule: a callback that takes the lock. The
// first statement of every target of the package, and of every function
// literal handed to a passed_to function, becomes a lock and an unlock of
// the lock (callback-locks), wherever the function can name it.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	lock := p.Lock(r.Lock)
	if lock == nil {
		return nil
	}
	var out []*mutant.Mutant
	for _, d := range p.Targets(inv) {
		e := mutate.NewEdits(p)
		if text, ok := p.LockedSection(e, d, lock); ok {
			out = append(out, p.InsertFirst(inv, e, d, d.Body, mutant.OpCallbackLocks, text))
		}
	}
	runners := mutate.ResolveFuncs(p.Scope, r.PassedTo)
	var fields []*types.Var
	for _, n := range r.StoredIn {
		if v := p.Lock(n); v != nil {
			fields = append(fields, v)
		}
	}
	for _, d := range p.SortedDecls() {
		for _, v := range callbacks(p.Pkg.TypesInfo, d, runners, fields) {
			lit, ok := ast.Unparen(v).(*ast.FuncLit)
			if !ok {
				continue
			}
			e := mutate.NewEdits(p)
			if text, ok := p.LockedSection(e, d, lock); ok {
				op := mutant.OpCallbackLocks + "@" + strconv.Itoa(p.Fset.Position(lit.Pos()).Line)
				out = append(out, p.InsertFirst(inv, e, d, lit.Body, op, text))
			}
		}
	}
	return out
}

// callbacks returns the values a declaration hands to the runners or
// stores in the fields.
func callbacks(info *types.Info, d *ast.FuncDecl, runners []*types.Func, fields []*types.Var) []ast.Expr {
	stored := func(id *ast.Ident) bool {
		f, ok := info.Uses[id].(*types.Var)
		return ok && slices.Contains(fields, f.Origin())
	}
	var out []ast.Expr
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if handsTo(info, n, runners) {
				out = append(out, n.Args...)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && len(n.Rhs) == len(n.Lhs) && stored(sel.Sel) {
					out = append(out, n.Rhs[i])
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && stored(id) {
				out = append(out, n.Value)
			}
		}
		return true
	})
	return out
}

// handsTo reports whether a call calls one of the runners.
func handsTo(info *types.Info, call *ast.CallExpr, runners []*types.Func) bool {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return false
	}
	for _, r := range runners {
		if fn.Origin() == r {
			return true
		}
	}
	return false
}

// Vacuity implements mutate.Rule: a lock no code of the package takes.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	if r.Lock.Pkg != p.Pkg.PkgPath {
		return nil
	}
	return p.Vacuous(r.Lock)
}
