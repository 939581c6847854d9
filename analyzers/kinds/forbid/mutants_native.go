//go:build cgo

package forbid

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// NativeOps are the reverts of a forbidden call in C, C++, CUDA and Rust:
// the call back at the entry, on a branch, in a lambda or closure nobody
// calls. Go's deferred call and goroutine have no spelling there that the
// front end would see as the function's own code (a destructor, a thread
// started with a lambda).
var NativeOps = []string{opCallAtEntry, opCallOnBranch, opStoredClosure}

// NativeMutants implements native.Rule: the forbidden call, written as
// its pattern spells it, put back into every target.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	d := c.Dialect()
	call := d.CallStmt(r.Call.Raw)
	var out []*mutant.Mutant
	for _, fn := range c.Targets() {
		for _, op := range r.NativeOps(d) {
			stmt := call
			switch op {
			case opCallOnBranch:
				stmt = d.OneBranch(call)
			case opStoredClosure:
				stmt = d.Closure(call)
			}
			e := c.NewEdits()
			e.AtEntry(fn, stmt)
			out = append(out, c.Mutant(fn, op, e, ""))
		}
	}
	return out
}

// NativeOps implements native.Rule: C has no lambdas.
func (r *Rule) NativeOps(d native.Dialect) []string {
	if d.Lambdas() {
		return NativeOps
	}
	return []string{opCallAtEntry, opCallOnBranch}
}

// NativeVacuity implements native.Rule: a forbidden call that no code of
// the files makes where it runs or might run guards nothing yet.
func (r *Rule) NativeVacuity(c *native.Code) []string {
	fns, err := c.Mentioning(native.LastName(r.Call.Raw))
	if err != nil {
		return nil // a file that cannot be read fails the baseline run
	}
	dead := ""
	for _, fn := range fns {
		if len(fn.Shapes) > 0 && fn.Shapes[0] == model.ShapeSubscript {
			// A subscript pattern matches expressions, as Check does.
			for _, o := range fn.Occurrences(fn.Patterns[0]) {
				if o.MayRun() {
					return nil
				}
				if dead == "" {
					dead = o.Dead
				}
			}
			continue
		}
		for _, call := range fn.Calls() {
			if !model.MatchCall(&call, fn.Patterns[0]) {
				continue
			}
			if call.MayRun() {
				return nil
			}
			if dead == "" {
				dead = call.Dead
			}
		}
	}
	return c.Vacuous(r.Call.Raw, native.LastName(r.Call.Raw), dead)
}
