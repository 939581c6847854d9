package fix

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// guardedAccesses are the field accesses a fix put under a lock, for a
// guarded_by kind to propose from (core.Change.Guarded): after a Lock or
// RLock of a named lock that the fix added, as a statement of any block,
// every selection of a field of a struct of the module in the statements
// that follow it in that block, up to the block's Unlock of the same
// lock, other than the lock itself. A deferred unlock holds the lock to
// the block's end. Function literals are left out: they run later.
func guardedAccesses(p *packages.Package, n goNamer, fd *ast.FuncDecl, added map[int]bool, at func(ast.Node) core.Origin) []core.GuardedAccess {
	var out []core.GuardedAccess
	seen := map[string]bool{}
	ast.Inspect(fd.Body, func(node ast.Node) bool {
		if _, ok := node.(*ast.FuncLit); ok {
			return false
		}
		blk, ok := node.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i, stmt := range blk.List {
			es, ok := stmt.(*ast.ExprStmt)
			if !ok || !onLines(p.Fset, es, added) {
				continue
			}
			call, ok := es.X.(*ast.CallExpr)
			if !ok {
				continue
			}
			op, ok := lockOf(n, call)
			if !ok || op.lock == "" || (op.op != locks.Lock && op.op != locks.RLock) {
				continue
			}
			mode := invariants.Exclusive
			if op.op == locks.RLock {
				mode = invariants.Shared
			}
			for _, s := range blk.List[i+1:] {
				if releases(n, s, op.lock) {
					break
				}
				for _, a := range fieldAccesses(p, n, s) {
					if a.field == op.lock || seen[a.field+op.lock] {
						continue
					}
					seen[a.field+op.lock] = true
					out = append(out, core.GuardedAccess{Origin: at(a.node), Field: a.field, Lock: op.lock, Mode: mode, Write: a.write})
				}
			}
		}
		return true
	})
	return out
}

// releases reports whether a statement is an Unlock or RUnlock of the
// lock, not deferred.
func releases(n goNamer, s ast.Stmt, lock string) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	op, ok := lockOf(n, call)
	return ok && op.lock == lock && (op.op == locks.Unlock || op.op == locks.RUnlock)
}

type access struct {
	node  ast.Node
	field string
	write bool
}

// fieldAccesses are the selections of fields of the module's structs in
// a statement, outside function literals, written ones marked.
func fieldAccesses(p *packages.Package, n goNamer, s ast.Stmt) []access {
	written := map[ast.Expr]bool{}
	var out []access
	ast.Inspect(s, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				written[target(l)] = true
			}
		case *ast.IncDecStmt:
			written[target(x.X)] = true
		case *ast.SelectorExpr:
			sel := p.TypesInfo.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return true
			}
			v, _ := sel.Obj().(*types.Var)
			if v == nil {
				return true
			}
			if name := n.fieldName(sel.Recv(), v); name != "" {
				out = append(out, access{node: x, field: name, write: written[x]})
			}
		}
		return true
	})
	return out
}

// target is the field selection an assignment writes through: `s.f` of
// `s.f = v`, `s.f[k] = v` and `*s.f = v` alike (what the field holds is
// written, and that is what a lock guards).
func target(e ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return ast.Unparen(e)
		}
	}
}
