package owns

import "github.com/guardlint/guardlint/analyzers/core"

// suggest implements core.Kind.Suggest: a field write the fix removed
// stays with the functions that write the field now (reset no longer
// clears the active encoder itself: endActiveEncoder does). A field no
// function writes any more has no writers to name.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, w := range c.RemovedWrites {
		if len(w.Writers) == 0 {
			continue
		}
		out = append(out, core.Proposal{Kind: Name, Origin: w.Origin, Field: w.Field, Keys: []core.Key{{Name: "writers", List: w.Writers}}, Says: []string{"owned"}})
	}
	return out
}
