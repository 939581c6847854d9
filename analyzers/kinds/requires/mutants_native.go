//go:build cgo

package requires

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/invariants"
)

// NativeOps implements native.Rule: the reverts of the guard that holds
// the lock for a call of an operation (native.ScopedOps), but the other
// mode where the rule needs the lock only shared, which an exclusive
// guard satisfies too.
func (r *Rule) NativeOps(d native.Dialect) []string {
	ops := d.Ops(native.ScopedOps)
	if r.Mode == invariants.Shared {
		ops = slices.DeleteFunc(ops, func(op string) bool { return op == mutant.OpOtherMode })
	}
	return ops
}

// NativeMutants implements native.Rule: for every live call of an
// operation that a guard of the lock holds, the reverts of that guard
// relative to the call. The calls are those the rule judges in a function
// whose call without the lock is reported in the function itself: under
// within, the named functions; else a function code outside its file can
// call. A function only its file calls passes the requirement to its
// callers instead, and a revert there is reported at a caller, or not at
// all when every caller holds the lock: no revert of the invariant.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	fns, err := c.All()
	if err != nil || len(fns) == 0 {
		return nil // the baseline run reports the files it cannot read
	}
	check := &nativeCheck{r: r, inv: c.Inv}
	ops := r.NativeOps(c.Dialect())
	var out []*mutant.Mutant
	for _, fn := range fns {
		if !r.reportsAtItself(check, fn) {
			continue
		}
		var sites []native.AccessSite
		var held [][]*model.Guard
		for _, call := range fn.Calls() {
			if !call.Live() || !r.callsOp(c.Inv, &call) {
				continue
			}
			hs, _, _ := check.holders(fn, call.Node)
			if len(hs) == 0 {
				continue // the baseline run reports it
			}
			g := hs[len(hs)-1]
			sites = append(sites, native.AccessSite{Fn: fn, Guard: g, Access: call.Node, Lock: lockOf(g, fn.Patterns[0]), Mode: r.Mode})
			held = append(held, hs)
		}
		for i, s := range sites {
			suffix := ""
			if len(sites) > 1 {
				suffix = "@" + native.Line(fn, s.Access)
			}
			for _, op := range ops {
				if len(held[i]) > 1 {
					// A reentrant lock taken again inside its own guard:
					// the outer guard still holds it whatever becomes of
					// the inner one.
					out = append(out, c.Void(fn, op+suffix, "another guard of the lock holds it here too"))
					continue
				}
				out = append(out, c.AccessMutant(s, op, suffix))
			}
		}
	}
	return out
}

// reportsAtItself reports whether a call of an operation without the
// lock would be reported in fn: fn is under within, or, without within,
// no operation and callable from outside its file.
func (r *Rule) reportsAtItself(check *nativeCheck, fn *treesitter.Function) bool {
	if len(r.Within) > 0 {
		for _, w := range r.Within {
			if fn.Is(w) {
				return true
			}
		}
		return false
	}
	return !check.isOp(fn) && fn.Exposed() != ""
}

// callsOp reports whether a call may be a call of an operation, as the
// rule matches them: by name.
func (r *Rule) callsOp(inv *invariants.Invariant, call *model.Call) bool {
	for _, op := range inv.Functions {
		if model.CallsName(call.Callee, op.Scoped) {
			return true
		}
	}
	return false
}

// lockOf returns the tokens of the expression a guard locks that the
// pattern matches: what another-lock replaces. A guard bound to an acquire
// helper's result names no lock of its own.
func lockOf(g *model.Guard, pattern []string) []string {
	for _, l := range g.Lock {
		if model.MatchLock(l, pattern) {
			return l
		}
	}
	return nil
}

// NativeVacuity implements native.Rule: an invariant with no live call of
// an operation to judge fails the baseline run ("checks nothing"), so a
// requires is never vacuous here.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
