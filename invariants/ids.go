package invariants

import "slices"

// SuggestID is the "did you mean" clause for an id that names no loaded
// invariant (a suppression comment's), from the ids of every loaded
// invariant, checked or not; "" when none is close.
func (s *Set) SuggestID(id string) string {
	var ids []string
	for _, inv := range slices.Concat(s.Invariants, s.Unchecked) {
		ids = append(ids, inv.ID)
	}
	return didYouMean(id, ids)
}
