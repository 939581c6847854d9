package excludes

import (
	"strconv"

	"github.com/guardlint/guardlint/analyzers/core"
)

// facts are what a front end found about the calls of functions that
// must not run with the lock held.
type facts[S core.Site] struct {
	lock string // the lock as the invariant names it
	// held are the calls made where the lock is held, on some path.
	held []heldCall[S]
	// escapes are the functions that must not run with the lock held
	// and that are used as values not handed to a call: who calls them,
	// and with which locks held, cannot be followed.
	escapes []escape[S]
}

// heldCall is a call of an excluded function (a target, or a function
// that calls one without deciding the lock's state itself) made where the
// lock is held on some path.
type heldCall[S core.Site] struct {
	fn string // the function that makes the call
	at S      // the call
	// lockedAt is where fn takes the lock before the call, or nil when
	// the front end cannot say.
	lockedAt S
	// path is the call path from fn to the target, both included.
	path []string
	// passed says that the excluded function is not called here but
	// handed as a value to a call that may call it.
	passed bool
}

// escape is an excluded function used as a value.
type escape[S core.Site] struct {
	at   S
	path []string // from the function used to the target
}

// verdict is the excludes rule's judgement: every call of a target, and
// of every function that reaches one without deciding the lock's state,
// runs with the lock not held; a finding names the call, where the lock
// was taken, and the path to the target.
func verdict[S core.Site](rep core.Reporter[S], f facts[S]) {
	for _, h := range f.held {
		taken := ""
		if core.Present(h.lockedAt) {
			taken = " (taken at line " + strconv.Itoa(rep.Line(h.lockedAt)) + ")"
		}
		target := h.path[len(h.path)-1]
		if h.passed {
			rep.Report(h.at, "%s hands %s to a call while holding %s%s: the call may run it, and %s must not run with %s held: %s",
				h.fn, h.path[1], f.lock, taken, target, f.lock, core.CallPath(h.path))
			continue
		}
		rep.Report(h.at, "%s calls %s while holding %s%s, and %s must not run with %s held: %s",
			h.fn, h.path[1], f.lock, taken, target, f.lock, core.CallPath(h.path))
	}
	for _, e := range f.escapes {
		rep.Report(e.at, "cannot verify: %s must not run with %s held, but is used here as a value that no call is handed: where it is called, and with which locks held, cannot be followed: %s",
			e.path[0], f.lock, core.CallPath(e.path))
	}
}
