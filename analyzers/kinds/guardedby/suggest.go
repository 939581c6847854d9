package guardedby

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// suggest implements core.Kind.Suggest: a field the fix reads or writes
// only with a lock held that it added (core.Change.Guarded) is proposed
// as guarded by that lock. The lock is a field of the same struct (named
// by its field name, as the rule names it: mu for (Raft).mu) or a
// package variable; a lock of another struct is no lock of the same
// value, and proposes nothing. A field the fix writes under a read lock
// proposes nothing either: the rule would report the fix itself. Reads
// keep the default (shared or exclusive): a fix does not say that reads
// need the lock exclusive. The command proves each proposal: it must
// hold on the fix and fail on the revert.
func suggest(c *core.Change) []core.Proposal {
	type group struct {
		at          core.Origin
		field, lock string
		bad         bool
	}
	var order []string
	groups := map[string]*group{}
	for _, g := range c.Guarded {
		lock, ok := sameValueLock(g.Field, g.Lock)
		if !ok {
			continue
		}
		key := g.Field + "\x00" + lock
		gr := groups[key]
		if gr == nil {
			gr = &group{at: g.Origin, field: g.Field, lock: lock}
			groups[key] = gr
			order = append(order, key)
		}
		if g.Write && g.Mode == invariants.Shared {
			gr.bad = true
		}
	}
	var out []core.Proposal
	for _, key := range order {
		gr := groups[key]
		if gr.bad {
			continue
		}
		out = append(out, core.Proposal{
			Kind:   Name,
			Origin: gr.at,
			Field:  pointerField(gr.field),
			Keys:   []core.Key{{Name: "lock", Value: gr.lock}},
			Says:   []string{"guarded", gr.lock},
		})
	}
	return out
}

// sameValueLock turns the lock of a guarded access into the rule's lock:
// the lock's field name when it is a field of the field's own struct
// ((Raft).mu for (Raft).peers: mu), a package variable as it is (cacheMu).
func sameValueLock(field, lock string) (string, bool) {
	if lock == "" {
		return "", false
	}
	if !strings.HasPrefix(lock, "(") {
		return lock, true // a package variable
	}
	fo, _, ok1 := cutOwner(field)
	lo, name, ok2 := cutOwner(lock)
	if !ok1 || !ok2 || fo != lo {
		return "", false
	}
	return name, true
}

// cutOwner splits "(T).f" or "(pkg.T).f" into its owner and name.
func cutOwner(s string) (owner, name string, ok bool) {
	i := strings.LastIndex(s, ").")
	if !strings.HasPrefix(s, "(") || i < 0 {
		return "", "", false
	}
	return s[1:i], s[i+2:], true
}

// pointerField names a field as the rule's target does, through a
// pointer to its struct: (*Raft).peers for (Raft).peers.
func pointerField(field string) string {
	if strings.HasPrefix(field, "(") && !strings.HasPrefix(field, "(*") {
		return "(*" + field[1:]
	}
	return field
}
