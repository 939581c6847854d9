package call

import "github.com/guardlint/guardlint/analyzers/core"

// facts are what a front end found about one definition of a target.
type facts[S core.Site] struct {
	fn   string // the function, for messages
	at   S      // its name: where a missing call is reported
	want string // the callee as the invariant names it
	// calls are the calls of the callee (or of a helper standing in for
	// it), live or not, in source order.
	calls []core.Occurrence[S]
	// namesake is a call of another function with the callee's name,
	// when the front end can tell them apart (Go, through types).
	namesake *namesake[S]
	// unreached are, with every_path, the exits reached without the call.
	unreached []core.Exit[S]
}

// namesake is a call of a function that has the callee's name but is
// another function: `b.retain()` on a *Buffer for (*Encoder).retain.
type namesake[S core.Site] struct {
	name string
	at   S
}

// verdict is the call rule's judgement of one definition: the call is
// there and runs (on every path, with every_path), or the finding says
// what happened to it, at the place a reader sees it best: a dead copy of
// the call, a return reached without it, or the function's name.
func verdict[S core.Site](rep core.Reporter[S], f facts[S]) {
	for _, c := range f.calls {
		if !c.Live() {
			continue
		}
		for _, e := range f.unreached {
			what := "this return is reached"
			if e.End {
				what = "the end of its body is reached"
			}
			rep.Report(e.At, "%s must call %s on every path, but %s without the call", f.fn, f.want, what)
		}
		return
	}
	for _, c := range f.calls {
		rep.Report(c.At, "%s must call %s; this call does not count: it is %s", f.fn, f.want, c.Dead)
		return
	}
	if n := f.namesake; n != nil {
		rep.Report(f.at, "%s must call %s; the call of %s at line %d has the same name but is another function", f.fn, f.want, n.name, rep.Line(n.at))
		return
	}
	rep.Report(f.at, "%s must call %s, and contains no live call of it", f.fn, f.want)
}
