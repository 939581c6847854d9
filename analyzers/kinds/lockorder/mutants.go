package lockorder

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Mutants implements mutate.Rule: the reverse edges a change brings in.
// Right after a statement that takes a lock of the order, the mutant
// takes an earlier lock and gives it up (lock-reversed), wherever the
// function can name the earlier lock; and two acquisitions of a block
// taken in order are swapped (locks-swapped).
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	vars := make([]*types.Var, len(r.Locks))
	for i, n := range r.Locks {
		vars[i] = p.Lock(n)
	}
	var out []*mutant.Mutant
	firsts := map[*ast.FuncDecl]map[int]*ast.ExprStmt{} // the first acquisition of each lock, by declaration
	for j, v := range vars {
		if v == nil {
			continue
		}
		for _, a := range p.Acquisitions(v) {
			if firsts[a.Decl] == nil {
				firsts[a.Decl] = map[int]*ast.ExprStmt{}
			}
			if firsts[a.Decl][j] != nil {
				continue
			}
			firsts[a.Decl][j] = a.Stmt
			for i := 0; i < j; i++ {
				if vars[i] == nil {
					continue
				}
				e := mutate.NewEdits(p)
				if text, ok := p.LockedSection(e, a.Decl, vars[i]); ok {
					op := fmt.Sprintf("%s@%d:%s", mutant.OpLockReversed, p.Fset.Position(a.Stmt.Pos()).Line, r.Locks[i].Short())
					out = append(out, p.InsertAfter(inv, e, a.Decl, a.Stmt, op, text))
				}
			}
		}
	}
	for d, byLock := range firsts {
		for i, first := range byLock {
			for j, second := range byLock {
				if i < j && first.Pos() < second.Pos() && sameBlock(d, first, second) {
					e := mutate.NewEdits(p)
					e.ReplaceNode(first, p.Text(second))
					e.ReplaceNode(second, p.Text(first))
					op := fmt.Sprintf("%s@%d", mutant.OpLocksSwapped, p.Fset.Position(first.Pos()).Line)
					out = append(out, mutate.NewMutant(inv, p, d, op, e, ""))
				}
			}
		}
	}
	return out
}

// sameBlock reports whether two statements are in the same statement
// list of a declaration.
func sameBlock(d *ast.FuncDecl, a, b ast.Stmt) bool {
	same := false
	ast.Inspect(d, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		var hasA, hasB bool
		for _, s := range list {
			hasA, hasB = hasA || s == a, hasB || s == b
		}
		same = same || (hasA && hasB)
		return !same
	})
	return same
}

// Vacuity implements mutate.Rule: a listed lock that no code of the
// package uses orders nothing here.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	var mine []invariants.Name
	for _, n := range r.Locks {
		if n.Pkg == p.Pkg.PkgPath {
			mine = append(mine, n)
		}
	}
	return p.Vacuous(mine...)
}
