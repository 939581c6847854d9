package excludes

import (
	"fmt"
	"strings"
)

// Excluded is the fact of a function that must not be called with an
// excludes invariant's lock held: it calls a target, or a function with
// this fact, where its own body does not decide whether the lock is held.
type Excluded struct {
	Locks []Exclusion
}

// Exclusion is one invariant's exclusion of a function's callers.
type Exclusion struct {
	ID   string // the excludes invariant
	Lock string // its lock, as the invariants file names it
	// Path is the call path from the function to the target, callee last.
	Path []string
}

// AFact marks Excluded as an analysis fact.
func (*Excluded) AFact() {}

func (f *Excluded) String() string {
	var parts []string
	for _, x := range f.Locks {
		parts = append(parts, fmt.Sprintf("excludes %s %s: %s", x.ID, x.Lock, strings.Join(x.Path, " → ")))
	}
	return strings.Join(parts, "; ")
}
