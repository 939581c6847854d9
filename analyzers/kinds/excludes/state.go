package excludes

import (
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
)

// state is what may hold of the lock at a point, over every path from
// the body's entry: one bit per possibility, joined where paths merge.
type state uint8

const (
	asCalled state = 1 << iota // as the callers had it: the body has not touched it
	held                       // taken by the body
	free                       // given up by the body
)

// analysis tracks the state of the contract's lock from the body's entry,
// entry being what may hold there. Deferred calls are left to the
// returns.
func (c *contract) analysis(res *locks.Resolver, entry state) *live.Analysis[state] {
	return &live.Analysis[state]{
		Entry: entry,
		Meet:  func(a, b state) state { return a | b },
		Effect: func(s state, e *live.Effect) state {
			if e.Deferred || !c.locks(res, e) {
				return s
			}
			op, _ := res.Op(e.Call)
			next := free
			if op == locks.Lock || op == locks.RLock {
				next = held
			}
			if e.Cond {
				return s | next
			}
			return next
		},
	}
}

// locks reports whether an effect locks or unlocks the contract's lock.
func (c *contract) locks(res *locks.Resolver, e *live.Effect) bool {
	if e.Call == nil || c.lock == nil {
		return false
	}
	op, ref := res.Op(e.Call)
	is, _ := ref.Is(c.lock)
	return op != locks.None && is
}
