//go:build cgo

package guardedby

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// A function used as a value cannot be followed, except where the value is
// a predicate handed to a mutex that runs it under itself
// (model.ConditionWaits): `mu_.Await(absl::Condition(this,
// &Pool::WorkAvailable))` calls WorkAvailable on `this` with mu_ held as
// the caller holds it there, `mu_.LockWhen(absl::Condition(&Ready, &x))`
// calls Ready(&x) with mu_ taken exclusive, and so does a guard built with
// the condition (`absl::MutexLock l(&mu_, absl::Condition(...))`). The
// value the function is called on is the Condition's object (a member
// function) or its argument (a function of one parameter, the one the
// need is of).

// judgeCondition judges a use of callee as a value that is one of these
// predicates, and reports whether it is one: it is then as a call of
// callee on the Condition's value at the wait, or under the lock the wait
// or guard takes.
func (c *nativeCheck) judgeCondition(caller *treesitter.Function, use *syntax.Node, callee *treesitter.Function, obj int, nd *nativeNeed) bool {
	cond, val := conditionOf(caller.File, use, obj)
	if cond == nil {
		return false
	}
	locks := c.locksIn(caller, val)
	// A guard built with the condition holds its mutex when it runs it.
	for _, g := range caller.Guards().All {
		if g.Node.Contains(cond) && g.Live() && g.Takes && locksAny(g, locks) && (nd.mode == invariants.Shared || g.Mode == invariants.Exclusive) {
			return true
		}
	}
	args := cond.Parent
	if args == nil || args.Kind != "argument_list" || args.Parent == nil || args.Parent.Kind != "call_expression" {
		return false
	}
	for _, call := range caller.Calls() {
		n := len(call.Callee)
		if call.Node != args.Parent || n < 3 || (call.Callee[n-2] != "." && call.Callee[n-2] != "->") {
			continue
		}
		w, ok := model.ConditionWaits[call.Callee[n-1]]
		if !ok {
			return false
		}
		if w.Takes && call.Live() && matchesAny(call.Callee[:n-2], locks) && (nd.mode == invariants.Shared || w.Mode == invariants.Exclusive) {
			return true
		}
		// Await: the caller holds the mutex, and the condition runs as
		// the caller's own code would there.
		c.judgeCallOn(caller, call, callee, val, nd)
		return true
	}
	return false
}

// conditionOf returns the Condition call a use of a function is an
// argument of, and the value the function is called on for the need of
// obj (-1: the receiver, else a parameter's index): `Condition(this,
// &T::f)` calls f on this, `Condition(&f, &x)` calls f(&x), whose
// parameter 0 is x. It returns nil for any other use.
func conditionOf(f *syntax.File, use *syntax.Node, obj int) (*syntax.Node, []string) {
	arg := use
	if p := arg.Parent; p != nil && p.Kind == "qualified_identifier" {
		arg = p
	}
	if p := arg.Parent; p != nil && p.Kind == "pointer_expression" {
		arg = p
	}
	list := arg.Parent
	if list == nil || list.Kind != "argument_list" || list.Parent == nil || list.Parent.Kind != "call_expression" {
		return nil, nil
	}
	cond := list.Parent
	callee := f.Tokens(cond.Child("function"))
	args := list.NamedChildren()
	if len(callee) == 0 || callee[len(callee)-1] != model.ConditionType || len(args) != 2 {
		return nil, nil
	}
	var val []string
	switch {
	case obj == -1 && args[1] == arg:
		val = f.Tokens(args[0])
	case obj == 0 && args[0] == arg:
		val = f.Tokens(args[1])
	default:
		return nil, nil
	}
	if len(val) == 2 && val[0] == "&" {
		val = val[1:]
	}
	if len(val) != 1 {
		return nil, nil
	}
	return cond, val
}
