package requires

import (
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
)

// checkOps checks the bodies of the contract's operations declared in this
// package, which run with the lock held: taking it again deadlocks (Go
// mutexes are not reentrant), and a call that needs it after the body gave
// it up is made without it.
func (ch *checker) checkOps(c *contract) {
	for _, u := range ch.units {
		if !c.ops[u.fn] {
			continue
		}
		name := rule.FuncName(u.fn)
		body := ch.r.Live.Func(u.decl)
		c.analysis(ch.res, c.need).Visit(body, live.Visitor[level]{Effect: func(l level, _ *live.Step, e *live.Effect) {
			if e.Deferred || l == free {
				return
			}
			if k := c.lockChange(ch.res, e); k == takes || k == takesShared {
				how := "is declared in the invariants file to require it"
				if c.annotated(u.fn) {
					how = "is annotated //guardlint:requires"
				}
				ch.r.Report(c.inv, e.Call, "%s takes %s, but %s: its callers already hold the lock, and Go mutexes are not reentrant", name, c.lockName(), how)
			}
		}})
		u.unmet[c] = ch.scan(body, c, c.need)
		for _, m := range u.unmet[c] {
			if m.held == free {
				ch.r.Report(c.inv, m.call, "%s calls %s after giving up %s (%s), which the call needs: %s",
					name, rule.FuncName(m.callee), c.lockName(), c.need, m.need.from(name).path.String())
			}
		}
	}
}

// checkHelpers checks the acquire and release helpers declared in this
// package: an acquire helper must hold the lock at every return, a release
// helper at none. A helper that does not is reported at its name in the
// invariants file, and the invariant cannot be verified with it.
func (ch *checker) checkHelpers() {
	for _, c := range ch.cs {
		ch.checkHelper(c, c.acquire, "acquire", func(l level) bool { return l >= c.need })
		ch.checkHelper(c, c.release, "release", func(l level) bool { return l == free })
	}
}

func (ch *checker) checkHelper(c *contract, helpers []*types.Func, what string, ok func(level) bool) {
	for _, h := range helpers {
		u := ch.byFunc[h]
		if u == nil {
			continue // declared elsewhere: checked in its own package
		}
		acquire, release := c.acquire, c.release
		c.acquire, c.release = nil, nil // a helper must change the lock itself
		flow := c.analysis(ch.res, free).Run(ch.r.Live.Func(u.decl))
		c.acquire, c.release = acquire, release
		good := len(flow.Exits) > 0
		for _, x := range flow.Exits {
			good = good && ok(x.State)
		}
		if !good {
			ch.r.Unverifiable(c.inv, c.helperAt[h], "%s helper %s does not %s %s on every path", what, rule.FuncName(h), what, c.lockName())
		}
	}
}
