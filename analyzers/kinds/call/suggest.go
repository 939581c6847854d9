package call

import "github.com/guardlint/guardlint/analyzers/core"

// suggest implements core.Kind.Suggest: a call the fix added must stay.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, a := range c.Calls {
		out = append(out, core.Proposal{Kind: Name, Origin: a.Origin, Keys: []core.Key{{Name: "to", Value: a.Callee}}, Says: []string{"calls", a.Callee}})
	}
	return out
}
