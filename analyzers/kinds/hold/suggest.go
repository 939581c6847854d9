package hold

import (
	"github.com/guardlint/guardlint/analyzers/core"
)

// suggest implements core.Kind.Suggest: a lock the fix added at the top
// of a body must be held for the body, in the mode it is taken.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, l := range c.Locks {
		out = append(out, core.Proposal{Kind: Name, Origin: l.Origin, Keys: l.Keys(), Says: []string{"holds", l.Lock}})
	}
	return out
}
