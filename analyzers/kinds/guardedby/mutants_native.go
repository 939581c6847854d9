//go:build cgo

package guardedby

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// opContractDeleted deletes what states that a function's callers hold
// the lock: its annotation (`EXCLUSIVE_LOCKS_REQUIRED(mu_)`, on every
// declaration that says it) or its assertion (`mu_.AssertHeld();`). It is
// made only where the files show no caller to check instead, a function
// that code outside the files can call or that none of them calls (a
// virtual override called through its base): there the contract is all
// that holds the lock for the accesses, as a guard is elsewhere.
const opContractDeleted = "contract-deleted"

// opSubscriptAdded is the C++ revert of a map lookup: `cache_[{}]` added
// right before an access that a shared guard holds, the read-looking
// subscript that inserts.
const opSubscriptAdded = "subscript-added"

var _ native.Rule = (*Rule)(nil)

// NativeOps implements native.Rule: the reverts of the guard that holds
// the lock for one access (native.ScopedOps: the guard deleted, the
// access moved out of its scope, the exclusive guard made shared ...),
// and, in C++ and CUDA, a subscript of a map added under a shared guard.
func (r *Rule) NativeOps(d native.Dialect) []string {
	ops := append(d.Ops(native.ScopedOps), opContractDeleted)
	if !d.Rust() && d.Lambdas() {
		ops = append(ops, opSubscriptAdded)
	}
	return ops
}

// nativeSite is one access that guards of the lock hold.
type nativeSite struct {
	native.AccessSite
	// held is how many guards hold the lock there.
	held int
	// write: the access needs the lock exclusive.
	write bool
	// field is the field's own expression as written.
	field string
}

// NativeMutants implements native.Rule: for every live access that a
// guard of the lock holds, the reverts of that guard relative to the
// access. A function that passes the need to its callers is reported at
// them, naming it on the call path (mutant.Site.Callee). The other mode
// is made only of an exclusive guard around an access that needs it so
// (a read's guard made shared reverts nothing), and a subscript is added
// only after an access under a shared guard of a map field. A call,
// holding the lock, of a function that needs it of its callers (a helper
// that touches the field) is a site too when its revert is reported in
// the caller: a field whose every access is in such helpers is reverted
// at their calls.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	inv := c.Inv
	fns, err := c.Mentioning(inv.Field.Scoped[len(inv.Field.Scoped)-1])
	if err != nil || len(fns) == 0 {
		return nil // the baseline run reports the files it cannot read
	}
	ck := newNativeCheck(r, fns)
	ck.heldCalls = map[*syntax.Node]heldCall{}
	if why := ck.run(); why != "" {
		return nil // the baseline run reports it
	}
	ops := r.NativeOps(c.Dialect())
	var out []*mutant.Mutant
	for _, fn := range fns {
		if r.nativeExempt(fn, ck.typ) {
			continue
		}
		sites := append(ck.sites(fn), ck.callSites(fn)...)
		for _, s := range sites {
			suffix := ""
			if len(sites) > 1 {
				suffix = "@" + native.Line(fn, s.Access)
			}
			for _, op := range ops {
				switch {
				case op == opContractDeleted:
					// One per function, not per site (contractMutant).
				case op == opSubscriptAdded:
					if ck.mapLike && s.Guard.Mode == invariants.Shared && s.field != "" {
						out = append(out, subscriptMutant(c, s, op+suffix))
					}
				case op == mutant.OpOtherMode && (!s.write || s.Guard.Mode != invariants.Exclusive):
				case s.held > 1:
					// A reentrant lock taken again inside its own guard:
					// the outer guard still holds it whatever becomes of
					// the inner one.
					out = append(out, c.Void(fn, op+suffix, "another guard of the lock holds it here too"))
				default:
					m := c.AccessMutant(s.AccessSite, op, suffix)
					// A function whose callers can hold the lock (a
					// private member, a file-local function) passes the
					// revert's need on to them: the finding lands at a
					// caller and names the function on its call path,
					// which is the revert's kill.
					m.Site.Callee = fn.Name()
					out = append(out, m)
				}
			}
		}
		if m := ck.contractMutant(c, fn); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// contractMutant deletes the contracts by which fn holds the lock for an
// access or a helper's call (opContractDeleted), or returns nil where a
// caller in the files is checked instead or fn holds it by none.
func (c *nativeCheck) contractMutant(nc *native.Code, fn *treesitter.Function) *mutant.Mutant {
	var whys []string
	for k, why := range c.declared {
		if k.fn == fn {
			whys = append(whys, why)
		}
	}
	if len(whys) == 0 || (c.callableOutside(fn) == "" && !c.uncalled(fn)) {
		return nil
	}
	reqs := c.contracts.Of(fn)
	var locks [][]string
	for _, r := range reqs {
		if slices.Contains(whys, r.Why) {
			locks = append(locks, r.Lock)
		}
	}
	e := nc.NewEdits()
	seen := map[treesitter.Span]bool{}
	for _, r := range reqs {
		if r.Branch || r.Stated.File == nil || !matchesAny(r.Lock, locks) || seen[r.Stated] {
			continue
		}
		seen[r.Stated] = true
		e.Replace(r.Stated.File, r.Stated.Start, r.Stated.End, "")
	}
	if len(seen) == 0 {
		return nc.Void(fn, opContractDeleted, "no text of the source states the contract (a lock held past a TryLock)")
	}
	m := nc.Mutant(fn, opContractDeleted, e, "")
	m.Site.Callee = fn.Name()
	return m
}

// sites lists the live accesses of fn that guards of the lock hold.
func (c *nativeCheck) sites(fn *treesitter.Function) []nativeSite {
	as, _ := fn.Accesses(c.typ, c.field)
	var out []nativeSite
	for _, a := range as {
		if !a.Live() {
			continue
		}
		mode, _ := c.modeOf(a)
		locks := c.locksIn(fn, a.Object)
		hs, _, _ := c.holders(fn, a.Node, locks, mode, nil)
		if len(hs) == 0 {
			continue // the baseline run reports it
		}
		g := hs[len(hs)-1]
		out = append(out, nativeSite{
			AccessSite: native.AccessSite{Fn: fn, Guard: g, Access: a.Node, Lock: guardLockOf(g, locks), Mode: mode},
			held:       len(hs), write: mode == invariants.Exclusive, field: fn.File.Text(a.Field),
		})
	}
	return out
}

// callSites lists the calls fn makes, holding the lock, of functions
// that need it of their callers (a helper that touches the field
// without the lock, annotated or file-local), whose revert is reported
// in fn: the sites of a field whose every access is in such helpers.
func (c *nativeCheck) callSites(fn *treesitter.Function) []nativeSite {
	var out []nativeSite
	for _, call := range fn.Calls() {
		hc, ok := c.heldCalls[call.Node]
		if !ok || hc.caller != fn {
			continue
		}
		hs, _, _ := c.holders(fn, call.Node, hc.locks, hc.mode, nil)
		if len(hs) == 0 {
			continue
		}
		g := hs[len(hs)-1]
		out = append(out, nativeSite{
			AccessSite: native.AccessSite{Fn: fn, Guard: g, Access: call.Node, Lock: guardLockOf(g, hc.locks), Mode: hc.mode},
			held:       len(hs), write: hc.mode == invariants.Exclusive,
		})
	}
	return out
}

// subscriptMutant adds `(void)field[{}];` right before the statement of
// an access under a shared guard (before: the statement may return): a
// lookup that reads like one and inserts a default key.
func subscriptMutant(c *native.Code, s nativeSite, op string) *mutant.Mutant {
	st, ok := c.StmtOf(s.Fn, s.Access)
	if !ok {
		return c.Void(s.Fn, op, "the access is not in a statement of the body")
	}
	e := c.NewEdits()
	e.Insert(s.Fn.File, st.Start, "(void)"+s.field+"[{}]; ")
	return c.Mutant(s.Fn, op, e, "")
}

// guardLockOf returns the tokens of the expression a guard locks that one of
// the locks matches: what another-lock replaces.
func guardLockOf(g *model.Guard, locks [][]string) []string {
	for _, l := range g.Lock {
		for _, p := range locks {
			if model.MatchLock(l, p) {
				return l
			}
		}
	}
	return nil
}

// NativeVacuity implements native.Rule: an invariant with no live access
// to judge fails the baseline run ("checks nothing"), so a guarded_by is
// never vacuous here.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
