package hold

import (
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Mutants implements mutate.Rule: the reverts of the lock in every
// target of the package.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	lock, err := p.Scope.Var(r.Lock)
	if err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	via := mutate.ResolveFuncs(p.Scope, r.Via)
	var out []*mutant.Mutant
	for _, d := range p.Targets(inv) {
		s, ok := p.FindLock(d, p.Follow(lock, r.Mode, via))
		if !ok {
			out = append(out, mutate.NewMutant(inv, p, d, "locate", nil, "the lock is not taken by a statement of the function's outermost block"))
			continue
		}
		for _, op := range mutant.HoldOps {
			if r.ReturnsHeld && (op == mutant.OpUnlockDeleted || op == mutant.OpUnlockDeletedOnePath) {
				continue // the target hands the lock over: no release to revert
			}
			out = append(out, p.HoldMutant(inv, s, lock, op))
		}
	}
	return out
}

// Vacuity implements mutate.Rule: a lock no code of the package uses.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	return p.Vacuous(r.Lock)
}
