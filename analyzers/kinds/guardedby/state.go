package guardedby

import (
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
)

// level is how the lock of one value is held at a point: a must-analysis
// over paths, so merging paths keeps the weakest.
type level uint8

const (
	free      level = iota // not held on every path
	shared                 // at least read-locked on every path
	exclusive              // write-locked on every path
)

func modeOf(l level) invariants.LockMode {
	if l == exclusive {
		return invariants.Exclusive
	}
	return invariants.Shared
}

func levelOf(m invariants.LockMode) level {
	if m == invariants.Exclusive {
		return exclusive
	}
	return shared
}

// analysis follows the lock of the value key names (a package lock: the
// one lock, key "") through a body, from entry. Deferred calls are left
// to the returns (atReturn). The lock operations are those the other lock
// rules read (locks.Resolver: the mutex's methods, promoted from an
// embedded mutex, through a bound method value or a pointer alias).
func (ch *checker) analysis(c *contract, key string, entry level) *live.Analysis[level] {
	return &live.Analysis[level]{
		Entry: entry,
		Meet:  func(a, b level) level { return min(a, b) },
		Effect: func(l level, e *live.Effect) level {
			if e.Deferred || e.Call == nil {
				return l
			}
			op, ref := ch.res.Op(e.Call)
			if is, _ := ref.Is(c.lock); op == locks.None || !is {
				return l
			}
			if c.onValue && ch.lockKey(c, e.Call) != key {
				return l // the same lock of another value
			}
			switch op {
			case locks.Lock:
				if e.Cond {
					return l
				}
				return exclusive
			case locks.RLock:
				if e.Cond {
					return l
				}
				return max(l, shared)
			}
			return free
		},
	}
}

// visit runs the analysis over a body and hands over the state before
// every step, in the body, in the literals that run in place and, at the
// returns, in the literals it defers (which run last registered first,
// after the returns, from the state the returns leave).
//
// deferred sees the state before each deferred call that is not a
// literal, when it runs.
func (ch *checker) visit(a *live.Analysis[level], b *live.Body, step func(level, *live.Step), deferred func(level, *live.Effect)) {
	flow := a.Visit(b, live.Visitor[level]{Step: step})
	s, ok := flow.AtExits(a.Meet)
	if !ok {
		return
	}
	defers := b.Deferred()
	for i := len(defers) - 1; i >= 0; i-- {
		now := *defers[i].Effect
		now.Deferred = false
		if now.Lit != nil {
			from := *a
			from.Entry = s
			ch.visit(&from, now.Lit, step, deferred)
			s = a.After(now.Lit, s)
			continue
		}
		deferred(s, defers[i].Effect)
		s = a.Effect(s, &now)
	}
}
