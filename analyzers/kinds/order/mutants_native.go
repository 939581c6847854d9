//go:build cgo

package order

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// nativeOrderOps are the reverts of the first call in C, C++, CUDA and
// Rust: Go's but the constant-false flag (compiled-out instead) and the
// deferred call, which neither language has.
var nativeOrderOps = []string{mutant.OpDelete, mutant.OpLineComment, mutant.OpBlockComment, mutant.OpCompiledOut, mutant.OpIfFalse, mutant.OpMoved, mutant.OpClosure, mutant.OpString, mutant.OpOneBranch, opSwapped}

// NativeMutants implements native.Rule: the reverts of every live call of
// first in every target that calls then.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	ops := c.Dialect().Ops(nativeOrderOps)
	var out []*mutant.Mutant
	for _, fn := range c.Targets() {
		// The calls or expressions (a bounds check, the access it
		// guards) the rule matches.
		live := func(i int) []*syntax.Node {
			var out []*syntax.Node
			occ, _ := occurrences(fn, i)
			for _, o := range occ {
				if o.Live() {
					out = append(out, o.At)
				}
			}
			return out
		}
		firsts, thens := live(0), live(1)
		if len(firsts) == 0 || len(thens) == 0 {
			out = append(out, c.Void(fn, "locate", fmt.Sprintf("no live %s followed by %s in %s", r.First.Raw, r.Then.Raw, fn.Name())))
			continue
		}
		for _, at := range firsts {
			suffix := ""
			if len(firsts) > 1 {
				suffix = fmt.Sprintf("@%d", fn.File.Position(at.Start).Line)
			}
			for _, op := range ops {
				var m *mutant.Mutant
				switch {
				case op == opSwapped:
					m = r.nativeSwapped(c, fn, at, thens, suffix)
				case op == mutant.OpDelete && isExpr(fn, 0) && holdsThen(c, fn, at, thens) && native.InCondition(fn, at):
					// `if (index < size) { out[index] = v; }`: the check
					// deleted is the condition made true, the access kept.
					m = c.ReplaceMutant(fn, at, c.Dialect().True(), op+suffix)
				case holdsThen(c, fn, at, thens):
					// `if (check(i)) { return read(i); }`, `read(check(i))`:
					// a revert of the statement takes the then call with
					// it, which keeps the order or removes what it orders.
					m = c.Void(fn, op+suffix, "the statement of the first call also makes the then call")
				default:
					m = c.StmtMutant(fn, at, op, suffix)
				}
				out = append(out, firstOf(m, op))
			}
		}
	}
	return out
}

// nativeSwapped moves the statement of the first call right after the
// next statement of the same block that calls then.
func (r *Rule) nativeSwapped(c *native.Code, fn *treesitter.Function, at *syntax.Node, thens []*syntax.Node, suffix string) *mutant.Mutant {
	first, ok := c.StmtOf(fn, at)
	if !ok {
		return c.Void(fn, opSwapped+suffix, "the call is not inside a statement")
	}
	var next *native.Stmt
	for _, t := range thens {
		s, ok := c.StmtOf(fn, t)
		if ok && s.Start >= first.End && s.Node.Parent == first.Node.Parent {
			next = &s
			break
		}
	}
	if next == nil {
		return c.Void(fn, opSwapped+suffix, "no statement with "+r.Then.Raw+" after it in the same block")
	}
	e := c.NewEdits()
	e.Replace(fn.File, first.Start, first.End, "")
	return c.Mutant(fn, opSwapped+suffix, e, c.PlaceAfter(e, fn, *next, first.Text(fn)))
}

// holdsThen reports whether the statement of the first call at also
// holds a then call.
func holdsThen(c *native.Code, fn *treesitter.Function, at *syntax.Node, thens []*syntax.Node) bool {
	s, ok := c.StmtOf(fn, at)
	if !ok {
		return false
	}
	for _, t := range thens {
		if s.Start <= t.Start && t.End <= s.End {
			return true
		}
	}
	return false
}

// NativeOps implements native.Rule: the reverts of the first call, named
// first-delete ...
func (r *Rule) NativeOps(d native.Dialect) []string {
	var out []string
	for _, op := range d.Ops(nativeOrderOps) {
		out = append(out, "first-"+op)
	}
	return out
}

// NativeVacuity implements native.Rule: a target that no longer calls
// then does not hold, which the baseline run reports.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
