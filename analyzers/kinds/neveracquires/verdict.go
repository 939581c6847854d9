package neveracquires

import (
	"github.com/guardlint/guardlint/analyzers/core"
)

// facts are what a front end found about one target.
type facts[S core.Site] struct {
	target string // the target, for messages
	lock   string // the lock as the invariant names it
	// take is the first call of the target that takes the lock, nil when
	// none does.
	take *take[S]
	// unresolved is the first call the target makes, itself or through
	// its callees, that cannot be followed; nil when every call can be.
	unresolved *unresolved[S]
	// opaque is set when the target is handed as a value that names no
	// function: what it runs cannot be known.
	opaque *opaque[S]
}

// take is an acquisition of the lock a target runs.
type take[S core.Site] struct {
	at S // the target's call that leads to it, or the lock call
	// path is from the target to the function that takes the lock, and
	// takenAt where it does (file:line).
	path    []string
	takenAt string
	maybe   bool // in a literal handed to a function that may call it
	// here says that at is the acquisition itself, in the target's body.
	here bool
}

// unresolved is a call that cannot be followed.
type unresolved[S core.Site] struct {
	at     S        // the target's call that leads to it
	what   string   // the call: "a call of the function value f"
	path   []string // from the target to the function that makes it
	madeAt string   // where (file:line)
}

// opaque is a target handed as a value that names no function.
type opaque[S core.Site] struct {
	at    S
	value string // the expression handed or stored
	how   string // "handed to (*p.Lane).Enqueue", "stored in (p.T).onDone"
}

// verdict is the never_acquires rule's judgement of one target: nothing
// it runs takes the lock, and every call it makes can be followed.
func verdict[S core.Site](rep core.Reporter[S], f facts[S]) {
	if o := f.opaque; o != nil {
		rep.Report(o.at, "cannot verify: the function %s here, %s, names no function: whether it takes %s cannot be verified", o.how, o.value, f.lock)
		return
	}
	if t := f.take; t != nil {
		may := ""
		if t.maybe {
			may = " (in a function literal handed to a call that may run it)"
		}
		if t.here {
			rep.Report(t.at, "%s must never take %s, and takes it here%s", f.target, f.lock, may)
		} else {
			rep.Report(t.at, "%s must never take %s, and %s takes it at %s%s: %s", f.target, f.lock, t.path[len(t.path)-1], t.takenAt, may, core.CallPath(t.path))
		}
	}
	if u := f.unresolved; u != nil {
		rep.Report(u.at, "cannot verify: %s must never take %s, and %s makes %s at %s, which cannot be followed: %s",
			f.target, f.lock, u.path[len(u.path)-1], u.what, u.madeAt, core.CallPath(u.path))
	}
}
