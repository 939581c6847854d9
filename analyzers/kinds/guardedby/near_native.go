//go:build cgo

package guardedby

import (
	"fmt"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// The near match of the C family (near.go says why, for Go): a local
// bound once to a member or an element of a value of another type
// (`LowLevelAlloc::Arena* arena = a->header.arena;` in Abseil's
// Coalesce) stands for a value its callers cannot name. Where a guard of
// the function holds the rule's lock of a value of Type in the mode the
// access needs, that lock is taken for the local's. Where none does, and
// only the function's file or class can call it, the need passes to its
// callers as the lock of some value of Type (anyValue): a caller that
// holds the lock of a value of Type makes up for it (AddToFreelist's
// callers, Free and DoAllocWithArena, hold their arena's through
// ArenaLock), one that can be called from elsewhere without it is
// reported.

// anyValue is the index of a need for the lock of some value of Type.
const anyValue = -3

// typeCallees returns the call and type index of the check's files.
func (c *nativeCheck) typeCallees() *treesitter.Callees {
	if c.callees == nil {
		c.callees = treesitter.NewCalleesWithHeaders(c.fns)
	}
	return c.callees
}

// linkedFromOther reports whether a value named by obj at n in fn is a
// local that stands for a member or an element of a value of another
// type than Type (treesitter.Callees.LinkOf).
func (c *nativeCheck) linkedFromOther(fn *treesitter.Function, obj []string, n *syntax.Node) bool {
	if len(obj) != 1 || c.global(c.pattern()) {
		return false
	}
	holders, ok := c.typeCallees().LinkOf(fn, obj[0], n)
	if !ok {
		return false
	}
	return !slices.ContainsFunc(holders, func(h []string) bool { return h[len(h)-1] == c.typ })
}

// typeLockHeld reports whether a guard of fn (inside within, when set)
// holds, at n and in mode, the rule's lock of a value of Type: `x->mu`,
// `x.mu` or `&x->mu` with x declared as a Type (or a pointer to one), or
// `mu` in Type's own functions.
func (c *nativeCheck) typeLockHeld(fn *treesitter.Function, n *syntax.Node, mode invariants.LockMode, within *syntax.Node) bool {
	for _, g := range fn.Guards().All {
		if within != nil && !within.Contains(g.Node) {
			continue
		}
		if held, _ := fn.HeldAt(g, n); !held || (mode == invariants.Exclusive && g.Mode != invariants.Exclusive) {
			continue
		}
		for _, l := range g.Lock {
			if base := c.lockBase(l); base != "" && c.ofType(fn, base, n) {
				return true
			}
		}
	}
	return false
}

// lockBase returns the name whose lock a locked expression is, by the
// rule's lock pattern: "x" for `x->mu`, `x.mu`, `&x->mu`; "this" for the
// bare member; "" for any other.
func (c *nativeCheck) lockBase(l []string) string {
	p := c.pattern()
	for len(l) > 1 && (l[0] == "&" || l[0] == "*") {
		l = l[1:]
	}
	switch {
	case slices.Equal(l, p):
		return "this"
	case len(l) == len(p)+2 && (l[1] == "->" || l[1] == ".") && slices.Equal(l[2:], p):
		return l[0]
	}
	return ""
}

// ofType reports whether a name's value at n in fn is declared a Type.
func (c *nativeCheck) ofType(fn *treesitter.Function, name string, n *syntax.Node) bool {
	paths, ok := c.typeCallees().NameClasses(fn, name, n)
	return ok && slices.ContainsFunc(paths, func(p []string) bool { return p[len(p)-1] == c.typ })
}

// typeContract returns the contract by which fn holds, at n and in mode,
// the rule's lock of a value of Type, with the index of that value
// (objIndex), or "".
func (c *nativeCheck) typeContract(fn *treesitter.Function, n *syntax.Node, mode invariants.LockMode) (why string, obj int) {
	for _, r := range c.contracts.Of(fn) {
		if n.Start < r.From || (r.Until > 0 && n.Start >= r.Until) || r.Branch {
			continue
		}
		if mode == invariants.Exclusive && r.Mode != invariants.Exclusive {
			continue
		}
		if base := c.lockBase(r.Lock); base != "" && c.ofType(fn, base, n) {
			return r.Why, c.objIndex(fn, []string{base})
		}
	}
	return "", 0
}

// judgeCallAny checks a call of a function that needs the lock of some
// value of Type (anyValue): the caller holds one at the call, or holds
// one by contract (which binds its callers), or passes the need on where
// only its file or class can call it; otherwise the call is reported.
func (c *nativeCheck) judgeCallAny(caller *treesitter.Function, call model.Call, callee *treesitter.Function, nd *nativeNeed) {
	path := append([]string{caller.Name()}, nd.path...)
	lock := fmt.Sprintf("%s of any %s", c.lockWord(c.r.Lock.Raw, nd.mode), c.typ)
	if !call.Live() {
		if !c.typeLockHeld(caller, call.Node, nd.mode, enclosingLiteral(call.Node)) {
			caller.Report(call.Node, "calls %s %s, and it %s, without %s held, which may run when the lock is not held (%s)", callee.Name(), call.Dead, nd.what, lock, strings.Join(path, " -> "))
		}
		return
	}
	if c.anyValueMet(caller, call.Node, &nativeNeed{mode: nd.mode, what: nd.what, path: path}) {
		return
	}
	reason := c.callableOutside(caller)
	if reason == "" {
		reason = "it gives up the lock before the call"
	}
	caller.Report(call.Node, "calls %s, which %s, without %s held (%s: %s)", callee.Name(), nd.what, lock, strings.Join(path, " -> "), reason)
}

// anyValueMet judges, at n in fn, a need for the lock of some value of
// Type: met when a guard of fn holds one there (the near match), or fn
// holds one by contract (which binds its callers: the contract's value
// gets the need), or passed on to fn's callers as such where only its
// file or class can call it and it has not given such a lock up before
// n. False when none applies: the caller reports it.
func (c *nativeCheck) anyValueMet(fn *treesitter.Function, n *syntax.Node, nd *nativeNeed) bool {
	if c.typeLockHeld(fn, n, nd.mode, nil) {
		return true
	}
	if why, obj := c.typeContract(fn, n, nd.mode); why != "" {
		if obj != -2 {
			c.addDeclared(nativeKey{fn, obj}, why, nd)
		}
		return true
	}
	if c.callableOutside(fn) == "" && !c.releasesAny(fn, n) {
		c.addNeed(nativeKey{fn, anyValue}, nd)
		return true
	}
	return false
}

// releasesAny reports whether fn gives up, before n, the rule's lock of
// any value of Type it may have been called with (an explicit unlock of
// one): what its callers held is not held after it.
func (c *nativeCheck) releasesAny(fn *treesitter.Function, n *syntax.Node) bool {
	for _, u := range fn.Unlocks() {
		if u.Node.Start < n.Start && c.lockBase(u.Lock) != "" {
			return true
		}
	}
	return false
}
