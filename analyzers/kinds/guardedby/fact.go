package guardedby

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Needs is the fact exported for a function whose callers must hold a
// guarded_by invariant's lock: it reads or writes the field (or calls a
// function with this fact) without taking the lock.
type Needs struct {
	Locks []Need
}

// Need is one invariant's requirement on a function's callers.
type Need struct {
	ID string // the guarded_by invariant
	// Param is whose lock the callers must hold: the receiver (-1), the
	// parameter of that index, or none (-2: a package lock).
	Param int
	Mode  invariants.LockMode
	// Path is the call path from the function to the one that touches
	// the field, both included.
	Path []string
	// What is the access at the end of the path: "reads (*p.T).f".
	What string
}

// AFact marks Needs as an analysis fact.
func (*Needs) AFact() {}

func (f *Needs) String() string {
	var parts []string
	for _, n := range f.Locks {
		parts = append(parts, fmt.Sprintf("guarded_by %s param %d (%s): %s %s", n.ID, n.Param, n.Mode, strings.Join(n.Path, " → "), n.What))
	}
	return strings.Join(parts, "; ")
}

// Guarded is the fact exported for an exported field that the inline
// form (// guardlint:guarded_by mu) guards, so that the packages that
// import it check their reads and writes of it too.
type Guarded struct {
	// Owner is the named type that declares the field.
	Owner string
	Lock  string
	Reads invariants.LockMode
	// Pos is where the comment is, for the invariant's messages.
	Pos string
}

// AFact marks Guarded as an analysis fact.
func (*Guarded) AFact() {}

func (f *Guarded) String() string { return "guarded_by " + f.Lock + " (" + string(f.Reads) + ")" }
