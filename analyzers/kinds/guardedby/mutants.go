package guardedby

import (
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Reverts of a guarded field.
const (
	opLockDeleted = "lock-deleted" // the lock around one access deleted
)

var _ mutate.Rule = (*Rule)(nil)

// Mutants implements mutate.Rule.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	if inv.Field.Pkg != p.Pkg.PkgPath {
		return nil
	}
	return []*mutant.Mutant{mutant.VoidMutant(inv, inv.Field.Short(), opLockDeleted, "guarded_by is not checked for Go yet")}
}

// Vacuity implements mutate.Rule.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	return nil
}
