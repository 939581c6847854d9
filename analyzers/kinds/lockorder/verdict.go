package lockorder

import (
	"strconv"

	"github.com/guardlint/guardlint/analyzers/core"
)

// facts are what a front end found about one body against a lock order.
type facts[S core.Site] struct {
	order    string // the order, for messages: a → b → c
	reversed []reversal[S]
}

// reversal is the reverse edge of a lock order: an earlier lock taken
// while a later one is held.
type reversal[S core.Site] struct {
	fn string // the function that holds the later lock
	at S      // the acquisition, or the call that leads to it
	// early is the lock taken, late the lock held, as the invariant
	// names them ("another lock, c.mu" for an unlisted one).
	early, late string
	// heldAt is where fn took the later lock, or nil when the front end
	// cannot say.
	heldAt S
	// path is, for an acquisition through calls, the call path from fn
	// to the function that takes the early lock, and takenAt its site
	// there (file:line); empty for an acquisition in fn itself.
	path    []string
	takenAt string
}

// verdict is the lock_order rule's judgement of one body: every lock is
// taken while holding only locks before it in the order. A finding names
// both acquisition sites and the path between them.
func verdict[S core.Site](rep core.Reporter[S], f facts[S]) {
	for _, r := range f.reversed {
		held := ""
		if core.Present(r.heldAt) {
			held = " (taken at line " + strconv.Itoa(rep.Line(r.heldAt)) + ")"
		}
		if len(r.path) == 0 {
			rep.Report(r.at, "%s takes %s while holding %s%s; the lock order is %s, so %s may not be taken while %s is held",
				r.fn, r.early, r.late, held, f.order, r.early, r.late)
			continue
		}
		rep.Report(r.at, "%s calls %s while holding %s%s, and %s takes %s at %s: %s; the lock order is %s, so %s may not be taken while %s is held",
			r.fn, r.path[1], r.late, held, r.path[len(r.path)-1], r.early, r.takenAt, core.CallPath(r.path), f.order, r.early, r.late)
	}
}
