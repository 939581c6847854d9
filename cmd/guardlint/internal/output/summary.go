package output

import (
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Summary states in one line what an invariant requires, from its target
// and rule: the short description of its SARIF rule.
func Summary(inv *invariants.Invariant) string {
	targets := names(inv.Functions)
	switch inv.Kind {
	case invariants.KindCall:
		s := targets + " must call " + inv.Call.To.Short()
		if inv.Call.EveryPath {
			s += " on every path"
		}
		return s
	case invariants.KindHold:
		s := targets + " must hold " + inv.Hold.Lock.Short()
		if inv.Hold.Mode == invariants.Shared {
			s += " (shared)"
		}
		return s + " for the body"
	case invariants.KindOwns:
		return inv.Field.Short() + " is written only by " + names(inv.Owns.Writers)
	case invariants.KindForbid:
		return targets + " must not call " + inv.Forbid.Call.Short()
	case invariants.KindOrder:
		return targets + " must call " + inv.Order.First.Short() + " before " + inv.Order.Then.Short()
	}
	return "invariant " + inv.ID
}

// names lists names in their short form, comma-separated.
func names(ns []invariants.Name) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = n.Short()
	}
	return strings.Join(s, ", ")
}
