//go:build cgo

package call

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// NativeOps are the reverts of a required call in C, C++, CUDA and Rust:
// Go's, with `#if 0` or `#[cfg(any())]` for the constant-false flag, which
// the front end does not fold (a C++ `constexpr bool` flag reads as a
// variable there).
var NativeOps = []string{mutant.OpDelete, mutant.OpLineComment, mutant.OpBlockComment, mutant.OpCompiledOut, mutant.OpIfFalse, mutant.OpAfterReturn, mutant.OpMoved, mutant.OpWrongRecv, mutant.OpClosure, mutant.OpString}

// NativeMutants implements native.Rule: the reverts of every live call of
// the required pattern or one of its alternatives (or of a helper under
// via) in every target. With
// every_path, the call kept on one branch only is a revert too.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	ops := r.NativeOps(c.Dialect())
	var out []*mutant.Mutant
	for _, fn := range c.Targets() {
		var sites []*syntax.Node
		for _, call := range fn.Calls() {
			if call.Live() && (matchesAny(&call, fn.Patterns) || r.viaCall(&call)) {
				sites = append(sites, call.Node)
			}
		}
		if len(sites) == 0 {
			out = append(out, c.Void(fn, "locate", fmt.Sprintf("no live call of %s in %s", r.callees(), fn.Name())))
			continue
		}
		out = append(out, c.SiteMutants(fn, sites, ops)...)
	}
	return out
}

// NativeOps implements native.Rule.
func (r *Rule) NativeOps(d native.Dialect) []string {
	ops := NativeOps
	if r.EveryPath {
		ops = append(ops[:len(ops):len(ops)], mutant.OpOneBranch)
	}
	return d.Ops(ops)
}

// NativeVacuity implements native.Rule: a required call that is not there
// does not hold, which the baseline run reports.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
