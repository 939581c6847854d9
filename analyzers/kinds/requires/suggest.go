package requires

import (
	"github.com/guardlint/guardlint/analyzers/core"
)

// suggest implements core.Kind.Suggest: a function called while a lock
// the fix added is held needs the lock at every call, so that a new
// caller that skips it is caught.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, l := range c.Locks {
		for _, fn := range l.Held {
			o := l.Origin
			o.Function = fn
			out = append(out, core.Proposal{Kind: Name, Origin: o, Keys: l.Keys(), Says: []string{"requires", l.Lock}})
		}
	}
	return out
}
