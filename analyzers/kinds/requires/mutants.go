package requires

import (
	"go/ast"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// requiresOps are the reverts of a lock that a requires invariant relies
// on: every revert of a held lock that leaves a later call without it.
// Unlocking early is left out: it unlocks after the first statement that
// does work, which is often the very call that needs the lock.
var requiresOps = []string{mutant.OpLockDeleted, mutant.OpEmptySection, mutant.OpAnotherLock, mutant.OpLockedLate, mutant.OpLockOneBranch, mutant.OpNestedScope, mutant.OpDeferredLock}

// requiresMutants reverts the lock in the entry points of the package that
// take the invariant's lock and then reach one of its operations, directly
// or through functions of the package. Entry points (exported functions
// and methods) are where the analysis reports a missing lock, so the
// finding of a revert lands inside the mutated function.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	lock, err := p.Scope.Var(r.Lock)
	if err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	acquire := mutate.ResolveFuncs(p.Scope, r.Acquire)
	reach := reaching(p, append(mutate.ResolveFuncs(p.Scope, inv.Functions), annotated(p, lock)...))
	var fns []*types.Func
	for fn := range p.Decls {
		if fn.Exported() && reach[fn] && fn.Pkg() == p.Pkg.Types {
			fns = append(fns, fn)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return p.Decls[fns[i]].Pos() < p.Decls[fns[j]].Pos() })
	var out []*mutant.Mutant
	for _, fn := range fns {
		s, ok := p.FindLock(p.Decls[fn], p.Follow(lock, r.Mode, acquire))
		if !ok {
			continue // does not take the lock itself: nothing to revert here
		}
		for _, op := range requiresOps {
			out = append(out, p.HoldMutant(inv, s, lock, op))
		}
	}
	return out
}

// annotated returns the functions of the package whose doc comment says
// //guardlint:requires with this lock: operations like those the
// invariant names.
func annotated(p *mutate.Package, lock *types.Var) []*types.Func {
	module := ""
	if p.Pkg.Module != nil {
		module = p.Pkg.Module.Path
	}
	var out []*types.Func
	for fn, d := range p.Decls {
		if d.Doc == nil {
			continue
		}
		for _, c := range d.Doc.List {
			words, ok := AnnotationWords(c.Text)
			if !ok || len(words) == 0 {
				continue
			}
			n, err := invariants.ParseName(words[0], module, p.Pkg.PkgPath)
			if err != nil {
				continue
			}
			if v, err := p.Scope.Var(n); err == nil && v == lock {
				out = append(out, fn)
			}
		}
	}
	return out
}

// reaching returns the functions of the package that call one of ops,
// directly or through other functions of the package, whatever the lock.
func reaching(p *mutate.Package, ops []*types.Func) map[*types.Func]bool {
	reach := map[*types.Func]bool{}
	for _, op := range ops {
		reach[op] = true
	}
	callees := map[*types.Func][]*types.Func{}
	for fn, d := range p.Decls {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if c, ok := mutate.CalleeFunc(p.Pkg.TypesInfo, call); ok {
					callees[fn] = append(callees[fn], c)
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for fn, cs := range callees {
			if reach[fn] {
				continue
			}
			for _, c := range cs {
				if reach[c] {
					reach[fn], changed = true, true
					break
				}
			}
		}
	}
	for _, op := range ops {
		delete(reach, op) // an operation runs under its callers' lock
	}
	return reach
}

// Vacuity implements mutate.Rule. An operation nobody calls without the
// lock is the rule holding, not a vacuous one: a new entry point is what
// it waits for.
func (r *Rule) Vacuity(*mutate.Package, *invariants.Invariant) []string { return nil }
