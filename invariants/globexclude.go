package invariants

import "strings"

// Excluded returns the pattern of a `!pattern` glob, which leaves out of
// the other globs' files those it matches, and whether the glob is one.
func (g Glob) Excluded() (string, bool) {
	return strings.CutPrefix(g.Pattern, "!")
}
