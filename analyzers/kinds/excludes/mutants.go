package excludes

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Mutants implements mutate.Rule: the reverts that bring a target under
// the lock. Every live call of a target is wrapped in Lock and Unlock
// (call-under-lock: the wait moved under the lock), and right after each
// statement that takes the lock, a target is called (call-added), where
// the function can make the call without arguments it does not have.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	lock := p.Lock(r.Lock)
	if lock == nil {
		return nil
	}
	targets := mutate.ResolveFuncs(p.Scope, inv.Functions)
	var out []*mutant.Mutant
	for _, d := range p.SortedDecls() {
		for _, c := range p.LiveCalls(d, targets) {
			op := fmt.Sprintf("%s@%d", mutant.OpCallUnderLock, p.Fset.Position(c.Pos()).Line)
			out = append(out, p.WrapInLock(inv, d, c, lock, op))
		}
	}
	for _, a := range p.Acquisitions(lock) {
		for _, t := range targets {
			call, ok := callText(p, a.Decl, t)
			if !ok {
				continue
			}
			op := fmt.Sprintf("%s@%d:%s", mutant.OpCallAdded, p.Fset.Position(a.Stmt.Pos()).Line, t.Name())
			out = append(out, p.InsertAfter(inv, mutate.NewEdits(p), a.Decl, a.Stmt, op, call))
		}
	}
	return out
}

// callText spells a call of fn inside d that needs no argument d lacks:
// a function of the package without parameters or with only a variadic
// one, or such a method of d's own receiver type; its results are
// discarded.
func callText(p *mutate.Package, d *ast.FuncDecl, fn *types.Func) (string, bool) {
	if fn.Pkg() != p.Pkg.Types {
		return "", false
	}
	sig := fn.Signature()
	if n := sig.Params().Len(); n > 1 || (n == 1 && !sig.Variadic()) {
		return "", false
	}
	call := fn.Name() + "()"
	if recv := sig.Recv(); recv != nil {
		if d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
			return "", false
		}
		mine := p.Pkg.TypesInfo.TypeOf(d.Recv.List[0].Names[0])
		if !types.Identical(mine, recv.Type()) {
			return "", false
		}
		call = d.Recv.List[0].Names[0].Name + "." + call
	}
	if n := sig.Results().Len(); n > 0 {
		call = strings.Repeat("_, ", n-1) + "_ = " + call
	}
	return call, true
}

// Vacuity implements mutate.Rule: a lock that no code of the package
// takes excludes nothing here. A target nobody calls under the lock is
// the rule holding: a new call is what it waits for.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	if r.Lock.Pkg != p.Pkg.PkgPath {
		return nil
	}
	return p.Vacuous(r.Lock)
}
