package invariants

import (
	"iter"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest returns up to three candidates nearest to word by edit distance,
// nearest first, for the "closest: ..." of a name that does not resolve.
// A candidate more edits away than half the length of the word's last
// path element (an identifier is its own; at least two) is no suggestion:
// import paths share long prefixes, and a limit on the whole path would
// offer every sibling package.
func Closest(word string, candidates iter.Seq[string]) []string {
	type scored struct {
		s string
		d int
	}
	base := word[strings.LastIndex(word, "/")+1:]
	limit := max(2, (len(base)+1)/2)
	var near []scored
	for c := range candidates {
		if c == word {
			continue
		}
		if d := levenshtein.ComputeDistance(word, c); d <= limit {
			near = append(near, scored{c, d})
		}
	}
	slices.SortFunc(near, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.s, b.s)
	})
	var out []string
	for _, n := range near[:min(3, len(near))] {
		out = append(out, n.s)
	}
	return out
}

// Suggest formats the closest candidates as a clause to append to a
// message ("; closest: a, b"), or "" when none is close.
func Suggest(word string, candidates iter.Seq[string]) string {
	c := Closest(word, candidates)
	if len(c) == 0 {
		return ""
	}
	return "; closest: " + strings.Join(c, ", ")
}
