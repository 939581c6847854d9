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
	// Drop is an expression statement whose value is computed and
	// dropped (a call made for its effect, `log.Printf("%d", n)`), with
	// the value as its Values.
	Drop
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
	// Settled also reads, besides what Local reads, package-level
	// variables that nothing writes once the program is initialised (a
	// sentinel error, `return ErrClosed`; a table filled in init): no
	// goroutine can change them under it, so reading them touches
	// nothing a lock protects. A front end calls a variable settled only
	// when it sees every write the variable can have outside its
	// initialisation and there is none.
	Settled
	// Outside calls functions that cannot touch what the lock protects
	// (CallValue says which), with arguments that are Settled, Local or
	// Constant values: `fmt.Errorf("no stream %d", s)`, `strconv.Itoa(n)`,
	// `format!("{}", n)`. Computing it is no work.
	Outside
)

// Worse combines the values of two parts of an expression: computing
// both involves what the worse involves (Computed over Outside over
// Settled over Local over Constant); a LockAddress part counts as a
// Constant.
func Worse(a, b Value) Value {
	switch {
	case a == Computed || b == Computed:
		return Computed
	case a == Outside || b == Outside:
		return Outside
	case a == Settled || b == Settled:
		return Settled
	case a == Local || b == Local:
		return Local
	}
	return Constant
}

// Target says which functions a call may run, as far as a front end can
// tell.
type Target int

// Targets.
const (
	// Unknown is a call whose target is not known: through a function
	// value, an interface method, a pointer, or a name the front end
	// cannot place. It may run anything.
	Unknown Target = iota
	// Owner is a function of the lock owner's package, namespace or
	// type (the value whose field the lock is, the package whose variable
	// it is): it may touch the protected state itself.
	Owner
	// Elsewhere is a function known to be declared outside the owner's
	// package and type: another package's function (fmt.Errorf,
	// strconv.Itoa), another namespace's or type's (std::to_string,
	// String::from), or a standard macro that only formats (format!).
	Elsewhere
)

// Call is a call described for the definition of work.
type Call struct {
	Target Target
	// Args are the values of the arguments, the receiver included.
	Args []Value
	// Shares says that an argument may carry a pointer into state
	// others share, whatever its value: a local pointer, slice, map,
	// interface or reference may point into the protected state, and a
	// function passed it may touch that state. A front end that cannot
	// tell the type of an argument sets it unless the argument is a
	// literal.
	Shares bool
}

// CallValue is what computing a call involves. A call of a function
// outside the lock owner's package and type, whose arguments are
// constants or locals and carry no pointer into shared state, cannot
// touch what the lock protects: it is Outside, no work. Every other call
// is Computed: a function of the owner's may touch its state, a function
// value or interface method may run anything, and an argument that
// shares memory hands the callee a way in.
func CallValue(c Call) Value {
	if c.Target != Elsewhere || c.Shares {
		return Computed
	}
	for _, a := range c.Args {
		if a == Computed {
			return Computed
		}
	}
	return Outside
}

// Step is a statement described for DoesWork.
type Step struct {
	Kind   StepKind
	Values []Value
}

// DoesWork reports whether a statement does work that a lock must cover:
// whether it may touch the state the lock protects. Work is reading or
// writing anything but the function's own locals and parameters, calling
// a function that may touch the protected state (CallValue), and
// operating on a channel. So these do none: an empty statement, a lock
// operation, a literal run in place (whose statements are judged
// themselves), and a declaration or an assignment of locals, a deferred
// call's arguments, a condition, a return or a panic, a call made for its
// effect, whose values are all constants, locals, settled package
// variables, the lock's own address or calls outside the owner with such
// arguments. A guard clause that checks its parameters and returns a
// sentinel error (`if p == nil { return errNil }`) does none; returning a
// field it read under the lock after unlocking (`mu.Unlock(); return
// f.n`) does.
func DoesWork(s Step) bool {
	switch s.Kind {
	case Empty, LockOp, Inline:
		return false
	case Declaration, Defer, Condition, Return, Drop:
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
