package order

import "github.com/guardlint/guardlint/analyzers/core"

// then is a live occurrence of the rule's `then` (a call, or for the
// tree-sitter languages an expression such as an access), and whether an
// occurrence of its `first` runs before it on every path from the
// function's entry.
type then[S core.Site] struct {
	at       S
	preceded bool
}

// words are how a finding speaks of the two ends of the order: calls, or
// for expressions (a bounds check and the access it guards) the
// expressions themselves.
type words struct {
	// exprs is set when first or then is an expression that is no call.
	exprs bool
}

// verdict is the order rule's judgement of one definition of a target:
// every live `then` comes after a `first` on every path. A target that no
// longer has a live `then` at all cannot be checked, which is a finding
// too: the order guards nothing there any more.
func verdict[S core.Site](rep core.Reporter[S], fn string, at S, first, second string, thens []then[S], w words) {
	if len(thens) == 0 {
		if w.exprs {
			rep.Report(at, "%s no longer evaluates %s where it runs, so the order %s before %s cannot be checked", fn, second, first, second)
			return
		}
		rep.Report(at, "%s no longer makes a live call of %s, so the order %s before %s cannot be checked", fn, second, first, second)
		return
	}
	for _, t := range thens {
		if t.preceded {
			continue
		}
		if w.exprs {
			rep.Report(t.at, "%s must evaluate %s before this %s, on every path", fn, first, second)
			continue
		}
		rep.Report(t.at, "%s must call %s before this call of %s, on every path", fn, first, second)
	}
}
