package registry

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
)

// Suggest proposes invariants from the facts of a fix: every kind's
// proposals (core.Kind.Suggest) for the languages the kind is checked
// for, in the order of the fix's lines (kinds in the registry's order at
// one line). `guardlint suggest` proves each before it prints it.
func Suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, k := range Kinds {
		if k.Suggest == nil {
			continue
		}
		for _, p := range k.Suggest(c) {
			if slices.Contains(k.Langs, p.Lang) {
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b core.Proposal) int {
		return a.Compare(&b.Origin)
	})
	return out
}
