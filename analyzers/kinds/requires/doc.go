// Package requires defines an Analyzer that checks guardlint's requires
// invariants.
//
// # Analyzer requires
//
// requires: check that operations are called with their lock held
//
// An invariant of kind requires names functions (the operations, such as
// the encode helpers of a runtime) and a lock: a package-level variable or
// a field, in exclusive (Lock) or shared (RLock) mode. Every call of an
// operation must happen where the lock is held on every path leading to
// it: taken before and not yet released, in a mode at least as strong as
// the invariant asks (a read lock does not meet a write requirement).
//
// A function that calls an operation without holding the lock requires the
// lock in turn: its own callers must hold it. The requirement follows
// callers through the package and, as an analysis fact, into every package
// that imports it, so an entry point written later that skips the lock is
// found without anyone naming it. The requirement stops, and is reported
// with the call path that leads to the operation, at a function whose
// callers cannot be known to hold the lock:
//
//   - an exported function or method, and init or main;
//   - a method that implements an interface of its package or of a package
//     it imports (it can be called through the interface);
//   - a function literal that does not run where it is written (stored,
//     returned or passed to a function that cannot be shown to call it);
//   - a goroutine: the body of a go statement starts with no lock held;
//   - a function used as a value instead of being called.
//
// Lock state is tracked per path through go/cfg: Lock, RLock, Unlock and
// RUnlock calls, an unlock deferred to the return (a deferred call runs
// after the function's last statement, in last-in first-out order), early
// returns, and code that does not run (constant-false branches, code after
// a return or panic). Helpers listed under acquire take the lock in the
// invariant's mode when called; helpers under release give it up. A
// helper declared in the analysed package is checked: an acquire helper
// must hold the lock at every return, a release helper must not.
//
// A function may state its requirement in its doc comment instead of the
// invariants file:
//
//	//guardlint:requires evalMu
//	func encodeLocked(...)
//
// The name resolves like invariant names, from the function's package, and
// an optional second word gives the mode. The annotation joins the
// function to the requires invariant on that lock; an annotation that names
// a lock no requires invariant names, that gives another mode, or that sits
// on a function taking the lock itself is reported.
//
// Limits: calls through function values and interfaces are not followed
// (their targets are reported as entry points instead); for a field lock,
// which value's field is held is not tracked (x.mu held meets a
// requirement on y.mu).
package requires
