package requires

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
)

// level is how a lock is held at a point: a must-analysis over paths, so
// merging paths keeps the weakest.
type level uint8

const (
	free      level = iota // not held on every path
	shared                 // at least read-locked on every path
	exclusive              // write-locked on every path
)

func levelOf(m invariants.LockMode) level {
	if m == invariants.Shared {
		return shared
	}
	return exclusive
}

func (l level) String() string {
	switch l {
	case shared:
		return "shared"
	case exclusive:
		return "exclusive"
	}
	return "not held"
}

// change is what one call does to the contract's lock.
type change int

const (
	keeps change = iota
	takes
	takesShared
	gives
)

// lockChange classifies a call against a contract's lock.
func (c *contract) lockChange(res *locks.Resolver, e *live.Effect) change {
	switch {
	case e.Callee != nil && slices.Contains(c.acquire, e.Callee):
		if c.need == shared {
			return takesShared
		}
		return takes
	case e.Callee != nil && slices.Contains(c.release, e.Callee):
		return gives
	}
	if e.Call == nil || c.lock == nil {
		return keeps
	}
	op, ref := res.Op(e.Call)
	if is, _ := ref.Is(c.lock); op == locks.None || !is {
		return keeps
	}
	switch op {
	case locks.Lock:
		return takes
	case locks.RLock:
		return takesShared
	}
	return gives
}

// analysis tracks the level of the contract's lock along every path, from
// a given level at the entry. Deferred calls are left to the exits.
func (c *contract) analysis(res *locks.Resolver, entry level) *live.Analysis[level] {
	return &live.Analysis[level]{
		Entry: entry,
		Meet:  func(a, b level) level { return min(a, b) },
		Effect: func(l level, e *live.Effect) level {
			if e.Deferred {
				return l
			}
			switch c.lockChange(res, e) {
			case takes:
				if e.Cond {
					return l
				}
				return exclusive
			case takesShared:
				if e.Cond {
					return l
				}
				return shared
			case gives:
				return free
			}
			return l
		},
	}
}
