// Package mutate is the Go side of guardlint prove: the reverts of
// guarded code, as text edits at the positions go/types gives the guarded
// sites, held in memory and never written to the working tree.
//
// A Package is one loaded, type-checked package with its live code; the
// kinds' generators (the Mutants method of a rule value, see Rule) find
// their sites through it and build each mutant.Mutant with Edits: the statement
// reverts of a required call (deleted, commented out, under if false,
// after a return, moved ...) in stmt.go, the reverts of a held lock
// (deleted, taken late, on one branch, in a nested scope ...) in lock.go.
// The prover (cmd/guardlint) checks each mutant and reports the matrix.
package mutate

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Rule is the prover's facet of a rule kind checked for Go: the rule value
// of such an invariant implements it.
type Rule interface {
	// Mutants returns the reverts of the invariant in one package that
	// holds its targets (or, for a field, the field).
	Mutants(p *Package, inv *invariants.Invariant) []*mutant.Mutant
	// Vacuity lists the reasons the invariant holds in this package
	// without constraining any code (see Package.Vacuous); nil when it
	// constrains some.
	Vacuity(p *Package, inv *invariants.Invariant) []string
}

// Spread is implemented by the rules whose reverts land in packages
// beyond their targets': an excludes invariant forbids calls of its
// targets under a lock, and those calls are made in the lock's package.
// The prover loads these packages too and asks Mutants of each.
type Spread interface {
	Rule
	// MutantPackages returns the import paths the invariant's reverts
	// may land in, its targets' included.
	MutantPackages(inv *invariants.Invariant) []string
}

// Packages returns the packages an invariant's reverts land in: its
// targets', or those a Spread rule names.
func Packages(inv *invariants.Invariant) []string {
	if s, ok := inv.Rule.(Spread); ok {
		return s.MutantPackages(inv)
	}
	return inv.Packages()
}
