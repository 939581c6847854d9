package excludes

import "github.com/guardlint/guardlint/analyzers/core"

// suggest implements core.Kind.Suggest: a function the fix stopped
// calling with a lock held must never run with it held, so that a later
// change that calls it under the lock again, here or in another caller,
// is caught.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, r := range c.Released {
		o := r.Origin
		o.Function = r.Callee
		out = append(out, core.Proposal{Kind: Name, Origin: o, Keys: []core.Key{{Name: "lock", Value: r.Lock}}, Says: []string{"excludes", r.Lock}})
	}
	return out
}
