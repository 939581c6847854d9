//go:build cgo

package hold

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// NativeMutants implements native.Rule: the reverts of the guard that
// holds the lock in every target, found as the rule finds it (the first
// guard of the outermost block that locks the lock or one of its
// alternatives).
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	ops := r.NativeOps(c.Dialect())
	var out []*mutant.Mutant
	for _, fn := range c.Targets() {
		h := fn.Hold()
		g := native.GuardSite{Fn: fn, Hold: h, At: -1, Mode: r.Mode}
		for i, s := range h.Top {
			if s.Kind != model.GuardStmt {
				continue
			}
			for _, l := range s.Guard.Lock {
				for _, p := range fn.Patterns {
					if g.At < 0 && model.MatchLock(l, p) {
						g.At, g.Lock = i, l
					}
				}
			}
			if g.At >= 0 {
				break
			}
		}
		if g.At < 0 {
			out = append(out, c.Void(fn, "locate", "no guard of "+r.locks()+" in the function's outermost block"))
			continue
		}
		for _, op := range ops {
			// A guard object has no unlock call to delete: its
			// unlock-deleted reverts are void.
			out = append(out, c.GuardMutant(g, op))
		}
	}
	return out
}

// NativeOps implements native.Rule. A target that hands the lock to its
// caller (returns_held) has no release to revert.
func (r *Rule) NativeOps(d native.Dialect) []string {
	ops := d.Ops(native.HoldOps)
	if r.ReturnsHeld {
		ops = slices.DeleteFunc(ops, func(op string) bool {
			return op == mutant.OpGuardForgotten || op == mutant.OpUnlockDeleted || op == mutant.OpUnlockDeletedOnePath
		})
	}
	return ops
}

// NativeVacuity implements native.Rule: a target that holds has a live
// guard of the lock, and one that has none fails the baseline run, so a
// hold is never vacuous in C, C++, CUDA or Rust.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
