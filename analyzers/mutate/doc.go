// Package mutate is the Go side of guardlint prove: the reverts of
// guarded code, as text edits at the positions go/types gives the guarded
// sites, held in memory and never written to the working tree.
//
// A Package is one loaded, type-checked package with its live code; the
// kinds' generators (the Mutants method of a rule value, see Rule) find
// their sites through it and build each Mutant with Edits: the statement
// reverts of a required call (deleted, commented out, under if false,
// after a return, moved ...) in stmt.go, the reverts of a held lock
// (deleted, taken late, on one branch, in a nested scope ...) in lock.go.
// The prover (cmd/guardlint) checks each mutant and reports the matrix.
package mutate

import "github.com/guardlint/guardlint/invariants"

// Rule is the prover's facet of a rule kind checked for Go: the rule value
// of such an invariant implements it.
type Rule interface {
	// Mutants returns the reverts of the invariant in one package that
	// holds its targets (or, for a field, the field).
	Mutants(p *Package, inv *invariants.Invariant) []*Mutant
	// Vacuity lists the reasons the invariant holds in this package
	// without constraining any code (see Package.Vacuous); nil when it
	// constrains some.
	Vacuity(p *Package, inv *invariants.Invariant) []string
}
