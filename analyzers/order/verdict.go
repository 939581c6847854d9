package order

import "github.com/guardlint/guardlint/analyzers/core"

// then is a live call of the rule's `then`, and whether a call of its
// `first` runs before it on every path from the function's entry.
type then struct {
	at       core.Site
	preceded bool
}

// verdict is the order rule's judgement of one definition of a target:
// every live call of `then` comes after a call of `first` on every path.
// A target that no longer calls `then` at all cannot be checked, which is
// a finding too: the order guards nothing there any more.
func verdict(rep core.Reporter, fn string, at core.Site, first, second string, thens []then) {
	if len(thens) == 0 {
		rep.Report(at, "%s no longer makes a live call of %s, so the order %s before %s cannot be checked", fn, second, first, second)
		return
	}
	for _, t := range thens {
		if !t.preceded {
			rep.Report(t.at, "%s must call %s before this call of %s, on every path", fn, first, second)
		}
	}
}
