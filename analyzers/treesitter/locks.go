package treesitter

import (
	"sort"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Acquisition is a point where a body takes a lock, with the stretch of
// the body over which it holds it: the facts of the rules that ask what
// is held at a point (excludes, lock_order).
type Acquisition struct {
	// Node is the guard's statement, or the lock call.
	Node *syntax.Node
	// Lock is the locked expression's tokens.
	Lock []string
	Mode invariants.LockMode
	// Takes is false for a guard that holds a lock it did not take
	// (std::adopt_lock): held, but no acquisition of its own.
	Takes bool
	// Until is the offset at which the lock stops being held: the end of
	// the guard's block, the guard's explicit release, the next unlock
	// call of the lock; Node's own end for a lock taken and given up in
	// one statement (a temporary guard).
	Until int
}

// HeldAt reports whether the body holds the lock at n.
func (a *Acquisition) HeldAt(n *syntax.Node) bool { return a.Node.End <= n.Start && n.Start < a.Until }

// Acquisitions lists the live acquisitions of the body, in source order:
// its guards, and its explicit lock calls (C family) or lock calls whose
// guard is a temporary (Rust).
func (fn *Function) Acquisitions() []Acquisition {
	if fn.acquisitions != nil {
		return *fn.acquisitions
	}
	h := fn.Guards()
	out := []Acquisition{}
	for _, g := range h.All {
		if !g.Live() || (!g.Takes && g.Scope == nil) {
			continue
		}
		until := g.Node.End
		if g.Scope != nil {
			until = g.Scope.End
			if g.LockCall {
				// A lock call holds its mutex on every path only within
				// its branch, but past it on some: what may be held (the
				// question here) runs to the end of the body.
				until = fn.Func.Body.End
			}
			for _, r := range h.Releases {
				if r.Guard == g.Name && g.Name != "" && r.Node.Start >= g.Node.End && r.Node.Start < until {
					until = r.Node.Start
				}
			}
		}
		for _, l := range g.Lock {
			out = append(out, Acquisition{Node: g.Node, Lock: l, Mode: g.Mode, Takes: g.Takes, Until: until})
		}
	}
	calls := fn.Calls()
	for _, c := range calls {
		if !c.Live() || fn.inGuard(h, c.Node) {
			continue
		}
		if lock, mode, ok := fn.lockCall(&c, true); ok {
			until := fn.Func.Body.End
			if fn.File.Lang == "rust" {
				until = c.Node.End
			}
			for _, u := range calls {
				if l, _, ok := fn.lockCall(&u, false); ok && u.Live() && u.Node.Start > c.Node.Start && u.Node.Start < until && model.MatchLock(l, lock) {
					until = u.Node.Start
				}
			}
			out = append(out, Acquisition{Node: c.Node, Lock: lock, Mode: mode, Takes: true, Until: until})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Node.Start < out[j].Node.Start })
	fn.acquisitions = &out
	return out
}

// Unlocks lists the live explicit unlock calls of the body (C family),
// each with the tokens of the lock it gives up.
func (fn *Function) Unlocks() []Acquisition {
	var out []Acquisition
	for _, c := range fn.Calls() {
		if l, _, ok := fn.lockCall(&c, false); ok && c.Live() {
			out = append(out, Acquisition{Node: c.Node, Lock: l, Until: c.Node.Start})
		}
	}
	return out
}

// inGuard reports whether a call is part of a guard's statement.
func (fn *Function) inGuard(h *model.Hold, n *syntax.Node) bool {
	for _, g := range h.All {
		if g.Node.Contains(n) {
			return true
		}
	}
	return false
}

// lockCall recognises an explicit lock call (lock true) or unlock call
// (lock false) and returns the tokens of its lock. Rust has no unlock:
// a guard's drop releases it.
func (fn *Function) lockCall(c *model.Call, lock bool) ([]string, invariants.LockMode, bool) {
	callee := c.Callee
	if len(callee) == 0 {
		return nil, "", false
	}
	name := callee[len(callee)-1]
	if fn.File.Lang == "rust" {
		mode, ok := fn.conf.RustGuardMethod(name)
		if !lock || !ok || len(callee) < 3 || callee[len(callee)-2] != "." || !noArgs(c) {
			return nil, "", false
		}
		return callee[:len(callee)-2], mode, true
	}
	if len(callee) >= 3 && (callee[len(callee)-2] == "." || callee[len(callee)-2] == "->") && noArgs(c) {
		if mode, ok := fn.conf.LockMethod(name); ok && lock {
			return callee[:len(callee)-2], mode, true
		}
		if fn.conf.UnlockMethod(name) && !lock {
			return callee[:len(callee)-2], "", true
		}
		return nil, "", false
	}
	mode, isLock := fn.conf.LockFunc(name)
	if (lock && !isLock) || (!lock && !fn.conf.UnlockFunc(name)) || len(callee) != 1 {
		return nil, "", false
	}
	arg := c.Tokens[len(callee):]
	if len(arg) < 3 || arg[0] != "(" || arg[len(arg)-1] != ")" {
		return nil, "", false
	}
	arg = arg[1 : len(arg)-1]
	if len(arg) > 1 && arg[0] == "&" {
		arg = arg[1:]
	}
	return arg, mode, true
}

// noArgs reports whether a call passes no arguments: its tokens are the
// callee and `()`.
func noArgs(c *model.Call) bool {
	return len(c.Tokens) == len(c.Callee)+2 && c.Tokens[len(c.Callee)] == "(" && c.Tokens[len(c.Callee)+1] == ")"
}
