package driver

import (
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Summary states in one line what an invariant requires, from its target
// and rule: the short description of its SARIF rule. An invariant whose
// rule or target is missing (which the loader does not let through) is
// summarised by its id rather than dereferenced.
func Summary(inv *invariants.Invariant) string {
	targets := names(inv.Functions)
	switch {
	case inv.Kind == invariants.KindCall && inv.Call != nil:
		s := targets + " must call " + inv.Call.To.Short()
		if inv.Call.EveryPath {
			s += " on every path"
		}
		return s
	case inv.Kind == invariants.KindHold && inv.Hold != nil:
		s := targets + " must hold " + inv.Hold.Lock.Short()
		if inv.Hold.Mode == invariants.Shared {
			s += " (shared)"
		}
		return s + " for the body"
	case inv.Kind == invariants.KindOwns && inv.Owns != nil && inv.Field != nil:
		return inv.Field.Short() + " is written only by " + names(inv.Owns.Writers)
	case inv.Kind == invariants.KindForbid && inv.Forbid != nil:
		return targets + " must not call " + inv.Forbid.Call.Short()
	case inv.Kind == invariants.KindOrder && inv.Order != nil:
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
