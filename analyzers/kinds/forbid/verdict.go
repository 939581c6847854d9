package forbid

import "github.com/guardlint/guardlint/analyzers/core"

// verdict is the forbid rule's judgement of one definition of a target:
// every call of the forbidden function that runs, or might run (a stored
// literal, a goroutine, a lambda nobody calls here), is a finding. Being
// unable to show that code runs is no proof that it does not.
func verdict[S core.Site](rep core.Reporter[S], fn, banned string, calls []core.Occurrence[S]) {
	for _, c := range calls {
		switch {
		case c.Live():
			rep.Report(c.At, "%s must not call %s", fn, banned)
		case c.Maybe:
			rep.Report(c.At, "%s must not call %s, and this call might run: it is %s", fn, banned, c.Dead)
		}
	}
}
