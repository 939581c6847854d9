//go:build cgo

package requires

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet: the rule over C, C++, CUDA, Rust and Metal code.
// The operations are the invariant's functions, and a call matches one by
// name (model.CallsName: without types, every call that may be the
// operation counts). Each call must lie in the live scope of a guard of
// the lock, in a mode at least as strong as the rule's: a guard declared
// in an enclosing block before the call and not released on the way to
// it (treesitter.Function.HeldAt). A guard that is a temporary, bound to
// `_`, in a block that closed before the call, constructed with
// std::defer_lock, or dropped or unlocked before the call does not count.
//
// As in Go, the rule follows callers: a function that calls an operation
// without holding the lock needs it in turn, and so do its callers. On a
// syntax tree the callers are known only of a function that no other
// file can call (static in a source file, in an anonymous namespace, a
// private Rust function of a file without out-of-line modules), and they
// are looked for in its file; any other function is where the requirement
// stops, and its call is reported with the path. An operation's own body
// runs with the lock held. With `within`, only the calls of the named
// functions are checked, each by its own guards.

// Patterns implements treesitter.FilesRule: the lock.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Lock} }

// PatternUses implements treesitter.PatternUser.
func (r *Rule) PatternUses() []model.Use { return []model.Use{model.UseLock} }

// Lookups implements treesitter.FilesLookup: the functions under within
// must be defined in the files. The operations need not be: a call of
// libc::getenv is matched wherever the files make it.
func (r *Rule) Lookups(*invariants.Invariant) []invariants.Name { return r.Within }

// Mentions implements treesitter.FilesLookup: a file that names no
// operation holds no call of one, and no caller of a function that needs
// the lock in turn (those are in the file of the call that made it need
// it); nor, then, a function under within that calls one.
func (r *Rule) Mentions(inv *invariants.Invariant) []string {
	var out []string
	for _, n := range append(append([]invariants.Name(nil), inv.Functions...), r.Within...) {
		out = append(out, n.Scoped[len(n.Scoped)-1])
	}
	return out
}

// AcquireHelpers implements treesitter.Acquirer.
func (r *Rule) AcquireHelpers() []invariants.Name { return r.Acquire }

// OnlyLookups implements treesitter.FilesLookup: with within, only the
// named functions' calls are checked.
func (r *Rule) OnlyLookups(*invariants.Invariant) bool { return len(r.Within) > 0 }

// CheckFiles implements treesitter.FilesRule.
func (r *Rule) CheckFiles(fns []*treesitter.Function) string {
	if len(fns) == 0 {
		return "no function of the files calls the operations, so the invariant checks nothing"
	}
	inv := fns[0].Inv
	for _, op := range inv.Functions {
		if op.Params != "" {
			return fmt.Sprintf("operation %s: calls are matched by name, and a parameter list cannot tell them apart", op.Raw)
		}
	}
	c := &nativeCheck{r: r, inv: inv, needs: map[*treesitter.Function][]string{}}
	scope := fns
	if len(r.Within) > 0 {
		scope = nil
		for _, fn := range fns {
			for _, w := range r.Within {
				if fn.Is(w) {
					scope = append(scope, fn)
					break
				}
			}
		}
	}
	for _, fn := range scope {
		if len(r.Within) == 0 && c.isOp(fn) {
			continue // an operation's body runs with the lock held
		}
		for _, call := range fn.Calls() {
			for _, op := range inv.Functions {
				if model.CallsName(call.Callee, op.Scoped) {
					c.judge(fn, call, op.Raw, []string{fn.Name(), op.Raw})
					break
				}
			}
		}
	}
	c.follow(fns)
	if c.calls == 0 {
		where := "the files"
		if len(r.Within) > 0 {
			where = names(r.Within)
		}
		return fmt.Sprintf("no live call of %s in %s, so the invariant checks nothing", names(inv.Functions), where)
	}
	return ""
}

// nativeCheck is one requires invariant checked over the functions of
// its files.
type nativeCheck struct {
	r     *Rule
	inv   *invariants.Invariant
	calls int // the live calls of operations judged
	// needs holds the functions that need the lock held by their callers,
	// with the call path from each to the operation; queue those whose
	// callers are still to be judged.
	needs map[*treesitter.Function][]string
	queue []*treesitter.Function
}

// isOp reports whether a function is one of the operations.
func (c *nativeCheck) isOp(fn *treesitter.Function) bool {
	for _, op := range c.inv.Functions {
		if fn.Func.Matches(op.Scoped) {
			return true
		}
	}
	return false
}

// judge checks one call of an operation (or of a function that needs the
// lock), path running from fn to the operation.
func (c *nativeCheck) judge(fn *treesitter.Function, call model.Call, callee string, path []string) {
	if !call.MayRun() {
		return
	}
	c.calls++
	r := c.r
	lock, mode := r.Lock.Raw, string(r.Mode)
	if !call.Live() {
		// A lambda or closure that may run later, when no guard holds.
		what := strings.TrimPrefix(call.Dead, "in ")
		if len(r.Within) > 0 {
			fn.Report(call.Node, "%s", unheldWithin(fn.Name(), lock, mode, callee, "this call is "+call.Dead+", which may run when the lock is not held"))
			return
		}
		fn.Report(call.Node, "%s", unheldLiteral(what, callee, lock, mode, path))
		return
	}
	holder, weaker, why := c.held(fn, call.Node)
	switch {
	case holder != nil:
		return
	case weaker:
		fn.Report(call.Node, "%s", weakerCall(fn.Name(), lock, callee, "a shared guard", "an exclusive one", path))
		return
	case len(r.Within) > 0:
		fn.Report(call.Node, "%s", unheldWithin(fn.Name(), lock, mode, callee, why))
		return
	}
	if c.needs[fn] != nil {
		return // its callers are judged already
	}
	if exposed := fn.Exposed(); exposed != "" {
		fn.Report(call.Node, "%s; %s", unheldCall(fmt.Sprintf("%s (%s)", fn.Name(), exposed), callee, lock, mode, path), why)
		return
	}
	c.needs[fn] = path
	c.queue = append(c.queue, fn)
}

// follow judges the callers of the functions that need the lock, in
// their files, until no new function needs it; a use of one as a value
// is reported, since its calls cannot be followed.
func (c *nativeCheck) follow(fns []*treesitter.Function) {
	for len(c.queue) > 0 {
		need := c.queue[0]
		c.queue = c.queue[1:]
		path := c.needs[need]
		name := need.Func.Path[len(need.Func.Path)-1]
		for _, caller := range fns {
			if caller.File != need.File || caller == need || c.isOp(caller) {
				continue
			}
			for _, call := range caller.Calls() {
				if model.CallsName(call.Callee, need.Func.Path) {
					c.judge(caller, call, need.Name(), append([]string{caller.Name()}, path...))
				}
			}
			for _, use := range caller.ValueUses(name) {
				caller.Report(use, "%s", valueUse(need.Name(), c.r.Lock.Raw, string(c.r.Mode), path))
			}
		}
	}
}

// held returns the guard of the lock that holds it at n in the rule's
// mode (the last declared when several do), or nil; weaker, when one holds it shared where the
// rule needs it exclusive; and otherwise why none counts, as a clause for
// messages.
func (c *nativeCheck) held(fn *treesitter.Function, n *syntax.Node) (holder *model.Guard, weaker bool, why string) {
	hs, weaker, why := c.holders(fn, n)
	if len(hs) > 0 {
		return hs[len(hs)-1], false, ""
	}
	return nil, weaker, why
}

// holders returns the guards of the lock that hold it at n in the rule's
// mode, in the order of the body's guards; weaker and why as for held.
func (c *nativeCheck) holders(fn *treesitter.Function, n *syntax.Node) (holders []*model.Guard, weaker bool, why string) {
	pattern := fn.Patterns[0]
	for _, g := range fn.Guards().All {
		mode := g.Mode
		switch {
		case g.Acquire != "":
			mode = c.r.Mode
		case !g.Locks(pattern):
			continue
		}
		ok, reason := fn.HeldAt(g, n)
		switch {
		case ok && (c.r.Mode == invariants.Shared || mode == invariants.Exclusive):
			holders = append(holders, g)
		case ok:
			weaker = true
		case why == "" || g.Node.Start < n.Start:
			why = fmt.Sprintf("the guard at line %d does not count: %s", fn.Line(g.Node), reason)
		}
	}
	if len(holders) > 0 {
		return holders, false, ""
	}
	if why == "" {
		why = fmt.Sprintf("no guard of %s is in scope here", c.r.Lock.Raw)
	}
	return nil, weaker, why
}

// names lists names for messages.
func names(ns []invariants.Name) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = n.Raw
	}
	return strings.Join(s, ", ")
}
