//go:build cgo

package excludes

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// NativeOps are the reverts that bring a target under the lock in C,
// C++, CUDA and Rust: Go's two, with the lock taken as the files take it
// (native.Section).
var NativeOps = []string{mutant.OpCallUnderLock, mutant.OpCallAdded}

// NativeOps implements native.Rule.
func (r *Rule) NativeOps(native.Dialect) []string { return NativeOps }

// NativeMutants implements native.Rule: every live call of a target, in
// any function of the files, wrapped in a section of the lock
// (call-under-lock@line); and right after each statement that takes the
// lock and holds it, a call of each target (call-added@line:name),
// written as the files call it.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	fns, err := c.All()
	if err != nil || len(fns) == 0 {
		return nil // the baseline run reports the files it cannot read
	}
	lock := fns[0].Patterns[0]
	callees := treesitter.NewCallees(fns)
	isTarget := func(fn *treesitter.Function, call *model.Call) bool {
		gs, unknown := callees.From(fn, call)
		if unknown {
			// A receiver of unknown type calls a target of its name,
			// as the check reads it.
			gs = callees.Named(call)
		}
		for _, g := range gs {
			for _, n := range c.Inv.Functions {
				if g.Matches(n) {
					return true
				}
			}
		}
		return false
	}
	section, haveSection := native.SectionOf(fns, lock)
	var out []*mutant.Mutant
	for _, fn := range fns {
		for _, call := range fn.Calls() {
			if !call.Live() || !isTarget(fn, &call) {
				continue
			}
			op := mutant.OpCallUnderLock + "@" + native.Line(fn, call.Node)
			if !haveSection {
				out = append(out, c.Void(fn, op, "no function of the files takes "+r.Lock.Raw+" in a statement of its own"))
				continue
			}
			out = append(out, c.UnderLock(fn, call.Node, section, op))
		}
	}
	for _, fn := range fns {
		for _, a := range fn.Acquisitions() {
			if !a.Takes || a.Until <= a.Node.End || !model.MatchLock(a.Lock, lock) {
				continue // a temporary holds nothing after its statement
			}
			for _, n := range c.Inv.Functions {
				op := mutant.OpCallAdded + "@" + native.Line(fn, a.Node) + ":" + n.Scoped[len(n.Scoped)-1]
				out = append(out, c.InsertAfter(fn, a.Node, callOf(c, fns, n.Scoped), op))
			}
		}
	}
	return out
}

// callOf writes a call of the target named by path as a statement: the
// statement of a live call of it in the files that is that call alone
// (`stream_.synchronize();`) or the call that is a Rust block's value,
// else its name called without arguments,
// which the rule resolves as it resolves every call, by name.
func callOf(c *native.Code, fns []*treesitter.Function, path []string) string {
	callees := treesitter.NewCallees(fns)
	for _, fn := range fns {
		for _, call := range fn.Calls() {
			if !call.Live() {
				continue
			}
			gs, unknown := callees.From(fn, &call)
			if unknown {
				gs = callees.Named(&call)
			}
			for _, g := range gs {
				if g.Func.Matches(path) {
					if s, ok := c.StmtOf(fn, call.Node); ok && s.Node == call.Node {
						return fn.File.Text(call.Node) + ";" // a Rust block's value
					} else if ok && s.Alone(call.Node) {
						return s.Text(fn)
					}
				}
			}
		}
	}
	return c.Dialect().CallStmt(path[len(path)-1])
}

// NativeVacuity implements native.Rule: a lock that no live code of the
// files takes fails the baseline run ("taken by no function of the
// files"), and a target nobody calls under the lock is the rule holding,
// so an exclusion is never vacuous here.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
