package neveracquires

import (
	"go/ast"
	"go/types"
	"strconv"

	"github.com/guardlint/guardlint/analyzers/mutate"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/types/typeutil"
)

// Mutants implements mutate.Rule: a callback that takes the lock. The
// first statement of every target of the package, and of every function
// literal handed to a passed_to function, becomes a lock and an unlock of
// the lock (callback-locks), wherever the function can name it.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutate.Mutant {
	lock := p.Lock(r.Lock)
	if lock == nil {
		return nil
	}
	var out []*mutate.Mutant
	for _, d := range p.Targets(inv) {
		e := mutate.NewEdits(p)
		if text, ok := p.LockedSection(e, d, lock); ok {
			out = append(out, p.InsertFirst(inv, e, d, d.Body, mutate.OpCallbackLocks, text))
		}
	}
	runners := mutate.ResolveFuncs(p.Scope, r.PassedTo)
	for _, d := range p.SortedDecls() {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !handsTo(p.Pkg.TypesInfo, call, runners) {
				return true
			}
			for _, arg := range call.Args {
				lit, ok := ast.Unparen(arg).(*ast.FuncLit)
				if !ok {
					continue
				}
				e := mutate.NewEdits(p)
				if text, ok := p.LockedSection(e, d, lock); ok {
					op := mutate.OpCallbackLocks + "@" + strconv.Itoa(p.Fset.Position(lit.Pos()).Line)
					out = append(out, p.InsertFirst(inv, e, d, lit.Body, op, text))
				}
			}
			return true
		})
	}
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
