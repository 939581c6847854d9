package requires

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Needs is the fact exported for a function whose callers must hold a
// requires invariant's lock: the function calls an operation of the
// invariant (or another function with this fact) without taking it.
type Needs struct {
	Locks []Need
}

// Need is one invariant's requirement on a function's callers.
type Need struct {
	ID   string // the requires invariant
	Lock string // its lock, as the invariants file names it
	Mode invariants.LockMode
	// Path is the call path from the function to the operation the
	// invariant names, callee first: ["helper", "(*pkg.Encoder).dispatch"].
	Path []string
}

// AFact marks Needs as an analysis fact.
func (*Needs) AFact() {}

func (f *Needs) String() string {
	var parts []string
	for _, n := range f.Locks {
		parts = append(parts, fmt.Sprintf("requires %s %s (%s): %s", n.ID, n.Lock, n.Mode, strings.Join(n.Path, " → ")))
	}
	return strings.Join(parts, "; ")
}
