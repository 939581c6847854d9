package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/inspector"
)

// readOnlyField says why the check lets every read of the field go
// without the lock, or "" when it may not. The check (checker.readOnly)
// needs no lock for the reads of an unexported field that its package
// writes only where no lock is needed and never hands to a call: a revert
// that moves a read out of the lock reverts nothing the rule asks, and
// would only survive. This is the generator's half of that verdict, and
// a stricter one, so that it never calls a revert equivalent that the
// check would see: no write at all in code that runs (a composite literal
// sets a field without selecting it), and every method call with a
// pointer receiver counted as a write, since the generator has no
// summaries of what the package's functions do with their receivers.
func readOnlyField(p *mutate.Package, field *types.Var) string {
	if field.Exported() || field.Pkg() != p.Pkg.Types {
		return ""
	}
	info := p.Pkg.TypesInfo
	in := inspector.New(p.Pkg.Syntax)
	for cur := range in.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal || s.Obj().(*types.Var).Origin() != field {
			continue
		}
		if lengthOnly(info, cur) || neverRuns(p, cur) {
			continue
		}
		if write, _ := writeAt(info, cur, nil); write || passedOn(info, cur) {
			return ""
		}
	}
	return field.Name() + " is written only where it is made (a composite literal) or in code that never runs, and never handed to a call: the check needs no lock for its reads (an unexported field read only)"
}

// neverRuns reports whether the code at cur is dead in its function or
// literal (after a return or a panic, under a constant false condition):
// the check never sees it run.
func neverRuns(p *mutate.Package, cur inspector.Cursor) bool {
	pos := cur.Node().Pos()
	for e := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch n := e.Node().(type) {
		case *ast.FuncLit:
			if deadAt(p.Live.Lit(n).DeadAt(pos)) {
				return true
			}
		case *ast.FuncDecl:
			if b := p.Live.Func(n); b != nil && deadAt(b.DeadAt(pos)) {
				return true
			}
		}
	}
	return false
}

// deadInDecl reports whether pos lies in dead code of a declaration's
// own body (code in literals is the literal's).
func deadInDecl(p *mutate.Package, d *ast.FuncDecl, pos token.Pos) bool {
	b := p.Live.Func(d)
	return b != nil && deadAt(b.DeadAt(pos))
}

// deadAt reports whether a dead region surely never runs: not code that
// might run all the same (a literal stored, started or passed on).
func deadAt(d *live.DeadCode) bool {
	return d != nil && !d.Maybe && !d.Passed
}

// outOfScopeWrite is the out-of-scope revert of a field read only, made
// as a write (`x.f = x.f`) right before the lock of the first function
// that takes it and then reads the field on its receiver or a parameter:
// an unlocked write is what a guard keeps out of a field read only, and
// the check needs the lock for it.
func outOfScopeWrite(p *mutate.Package, inv *invariants.Invariant, field, lock *types.Var, helpers lockHelpers) *mutant.Mutant {
	m := mutant.VoidMutant(inv, inv.Field.Short(), mutant.OpOutOfScope, "no function takes the lock with a lock statement and then touches "+field.Name())
	for _, h := range hostsOf(p, touch{field: field}, lock, helpers, false) {
		if m = outOfScope(p, inv, h, touch{field: field}, true); m.Void == "" {
			return m
		}
	}
	return m
}
