package core

import "slices"

// "Does work" has one definition, here. It decides where a lock must be
// held (hold) and which statement a revert moves a lock or an unlock past
// (guardlint prove). Each front end describes a statement as a Step, in
// its language's terms, and DoesWork decides, the same way for every
// language.

// StepKind says what a statement is, for the definition of work.
type StepKind int

// Step kinds.
const (
	// Other is every statement not named below: a call, an assignment to
	// state that existed before the statement, an increment, a channel
	// operation, a statement that branches or loops on a value it
	// computes. It does work.
	Other StepKind = iota
	// Empty is an empty statement or block.
	Empty
	// Declaration declares names (types, aliases, usings, nested items,
	// variables or constants), or assigns to the function's own locals,
	// and computes Values for them, and nothing else.
	Declaration
	// Defer registers a call to run when the function returns; the call
	// is judged where it runs. Values are its arguments, computed now.
	Defer
	// LockOp takes or gives up the lock the rule follows, directly or
	// through a helper the invariant declares.
	LockOp
	// Inline runs a function literal (a closure, a lambda) in place; its
	// own statements are judged one by one.
	Inline
	// Condition is the condition of a branch or loop, with its Values.
	Condition
	// Return leaves the function (a return, or a panic) with Values: its
	// results, or the panic's value.
	Return
)

// Value says what computing one value involves.
type Value int

// Values.
const (
	// Computed reads state or calls a function.
	Computed Value = iota
	// Constant is a constant or a literal.
	Constant
	// LockAddress is the address of the lock the rule follows, or a
	// reference to it: taking it touches nothing the lock protects.
	LockAddress
	// Local reads only the function's own locals and parameters (not
	// what they point to), constants and literals: a value no other
	// goroutine can change under it.
	Local
)

// Worse combines the values of two parts of an expression: computing
// both involves what the worse involves (Computed over Local over
// Constant); a LockAddress part counts as a Constant.
func Worse(a, b Value) Value {
	if a == Computed || b == Computed {
		return Computed
	}
	if a == Local || b == Local {
		return Local
	}
	return Constant
}

// Step is a statement described for DoesWork.
type Step struct {
	Kind   StepKind
	Values []Value
}

// DoesWork reports whether a statement does work that a lock must cover.
// Work is reading or writing anything but the function's own locals and
// parameters, calling a function, and operating on a channel. So these do
// none: an empty statement, a lock operation, a literal run in place
// (whose statements are judged themselves), and a declaration or an
// assignment of locals, a deferred call's arguments, a condition, a
// return or a panic whose values are all constants, locals or the lock's
// own address. A guard clause that checks its parameters and returns
// (`if p == nil { return errNil }`) does none; returning a field it read
// under the lock after unlocking (`mu.Unlock(); return f.n`) does.
func DoesWork(s Step) bool {
	switch s.Kind {
	case Empty, LockOp, Inline:
		return false
	case Declaration, Defer, Condition, Return:
		return slices.Contains(s.Values, Computed)
	}
	return true
}

// AnyWork reports whether any of a statement's steps does work: the
// question the front ends ask of each statement of a guarded body.
func AnyWork(steps []Step) bool {
	for _, s := range steps {
		if DoesWork(s) {
			return true
		}
	}
	return false
}
