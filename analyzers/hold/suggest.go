package hold

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// suggest implements core.Kind.Suggest: a lock the fix added at the top
// of a body must be held for the body, in the mode it is taken.
func suggest(c *core.Change) []core.Proposal {
	var out []core.Proposal
	for _, l := range c.Locks {
		out = append(out, core.Proposal{Kind: Name, Origin: l.Origin, Keys: LockKeys(l), Says: []string{"holds", l.Lock}})
	}
	return out
}

// LockKeys are the keys of a rule on an added lock: the lock, and the
// mode when it is shared (exclusive is the default). requires names its
// lock with the same keys.
func LockKeys(l core.AddedLock) []core.Key {
	keys := []core.Key{{Name: "lock", Value: l.Lock}}
	if l.Mode == invariants.Shared {
		keys = append(keys, core.Key{Name: "mode", Value: string(invariants.Shared)})
	}
	return keys
}
