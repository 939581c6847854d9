package order

import "github.com/guardlint/guardlint/analyzers/core"

// suggest implements core.Kind.Suggest: the call in a check the fix
// added must come before the call the check protects.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, k := range c.Checks {
		out = append(out, core.Proposal{Kind: Name, Origin: k.Origin,
			Keys: []core.Key{{Name: "first", Value: k.First}, {Name: "then", Value: k.Then}}, Says: []string{"orders", k.First}})
	}
	return out
}
