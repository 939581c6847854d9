package forbid

import "github.com/guardlint/guardlint/analyzers/core"

// suggest implements core.Kind.Suggest: a call the fix removed must not
// come back.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, r := range c.RemovedCalls {
		out = append(out, core.Proposal{Kind: Name, Origin: r.Origin, Keys: []core.Key{{Name: "call", Value: r.Callee}}, Says: []string{"forbids", r.Callee}})
	}
	return out
}
