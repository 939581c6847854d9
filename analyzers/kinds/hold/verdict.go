package hold

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// facts are what a front end found about one definition of a target.
type facts[S core.Site] struct {
	fn   string // the function, for messages
	at   S      // its name
	lock string // the lock as the invariant names it
	mode invariants.LockMode
	// acquired: the body takes the lock in the rule's mode where it
	// counts (a live acquisition; for a C++ or Rust guard, one that lives
	// to the end of the body).
	acquired bool
	// wrongMode is a live acquisition in the other mode, or nil.
	wrongMode S
	// unheld is the first statement that does work, or the first return,
	// reached without the lock; nil when there is none.
	unheld S
	// takenAt is where the lock is taken, when unheld comes before it.
	takenAt S
	// released is an explicit release (drop, unlock) that a statement
	// doing work, workAfter, still follows.
	released, workAfter S
	// ignored is a guard of the lock that does not hold it for the body
	// (in a nested block, a temporary, bound to `_`, dead), with why.
	ignored    S
	ignoredWhy string
	// relocked is a lock of the lock where it is already held: Go's
	// mutexes are not reentrant, so Lock under Lock deadlocks, and the
	// sync package prohibits recursive read locking, which deadlocks as
	// soon as a writer waits in between (`Lock(); defer Lock()`, the
	// Unlock-to-Lock typo).
	relocked S
	// leaks are the returns reached with the lock still held, by a
	// target that must release it (not returns_held).
	leaks []core.Exit[S]
	// acquisition is the call that takes the lock, as the leak's
	// message names it ("pthread_mutex_lock(&c->mu)"), and releaseHow
	// how code releases it on every path; "" for the words of Go's
	// (an acquisition, a deferred unlock).
	acquisition, releaseHow string
	// forgotten is a call that gives up the guard without unlocking
	// (mem::forget, unique_lock::release), by such a target.
	forgotten S
	// takes are the locks the body does take, as its guards and lock
	// calls spell them, when it never acquires the rule's: a lock named
	// wrong in the invariant shows beside the one the code takes.
	takes []string
}

// verdict is the hold rule's judgement of one definition: the lock is
// held, in the rule's mode, at every statement that does work
// (core.DoesWork): taken before the first, and released, if before the
// return, only once no work remains. A finding says what broke, where a
// reader sees it.
func verdict[S core.Site](rep core.Reporter[S], f facts[S]) {
	const span = "at every statement that does work"
	if core.Present(f.relocked) {
		rep.Report(f.relocked, "%s is already held here: locking it again deadlocks, since Go's mutexes are not reentrant", f.lock)
	}
	// A relock deadlocks before the return: the lock held there is the
	// same mistake, reported once.
	for _, l := range f.leaks {
		if core.Present(f.relocked) {
			break
		}
		where := "returns here"
		if l.End {
			where = "returns at the end of its body"
		}
		acq, how := "acquisition of it", "a deferred unlock"
		if f.acquisition != "" {
			acq = f.acquisition
		}
		if f.releaseHow != "" {
			how = f.releaseHow
		}
		rep.Report(l.At, "%s is still held when %s %s: every later %s blocks for ever; release it on every path (%s), or say returns_held: true if the caller releases it", f.lock, f.fn, where, acq, how)
	}
	if core.Present(f.forgotten) {
		rep.Report(f.forgotten, "the guard of %s is given up here without unlocking it: %s returns with %s held, and every later acquisition of it blocks for ever; let the guard drop, or say returns_held: true if the caller releases it", f.lock, f.fn, f.lock)
	}
	if f.acquired && !core.Present(f.unheld) && !core.Present(f.released) {
		return
	}
	switch {
	case core.Present(f.wrongMode) && !f.acquired:
		rep.Report(f.wrongMode, "%s is not held in %s mode here; %s must hold it %s, and takes it in the other mode", f.lock, f.mode, f.fn, span)
	case !f.acquired && core.Present(f.ignored):
		rep.Report(f.ignored, "%s must hold %s (%s) %s; this guard does not count: %s", f.fn, f.lock, f.mode, span, f.ignoredWhy)
	case !f.acquired:
		rep.Report(f.at, "%s must hold %s (%s) %s, and never acquires it%s", f.fn, f.lock, f.mode, span, takesClause(f.takes))
	case core.Present(f.released):
		rep.Report(f.released, "%s is released here, but %s must hold it %s: the statement at line %d still does", f.lock, f.fn, span, rep.Line(f.workAfter))
	case core.Present(f.takenAt):
		rep.Report(f.unheld, "%s is not held here; %s must hold it (%s) %s, and takes it only at line %d", f.lock, f.fn, f.mode, span, rep.Line(f.takenAt))
	default:
		rep.Report(f.unheld, "%s is not held here; %s must hold it (%s) %s", f.lock, f.fn, f.mode, span)
	}
}

// takesClause names the locks a function takes instead of the rule's,
// or is "" when it takes none.
func takesClause(takes []string) string {
	if len(takes) == 0 {
		return ""
	}
	return "; the function takes " + strings.Join(takes, ", ")
}
