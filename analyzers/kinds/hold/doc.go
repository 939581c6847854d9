// Package hold defines an Analyzer that checks guardlint's hold
// invariants.
//
// # Analyzer hold
//
// hold: check that a lock is held for a function's whole body
//
// An invariant of kind hold names target functions and a lock: a
// package-level variable (example.com/m/runtime.evalMu) or a field
// ((*example.com/m/runtime.encoderRegistry).mu). The target holds the
// invariant when the lock is held, in the named mode, at every statement
// that does work and at every return: the lock is taken before the first
// statement that does work and is not released before the function
// returns, except by a deferred unlock.
//
// Exclusive mode means Lock; shared mode means RLock (taking the write
// lock where the invariant asks for the read lock is reported: it
// serializes the readers the invariant exists to let run together).
//
// Work is what may touch the state the lock protects (core.DoesWork):
// reading or writing anything but the function's locals, calling a
// function of the lock's package or through a function value or
// interface, passing another package's function a value that may point
// into shared memory, a channel operation. A call of another package's
// function with constants and pointer-free locals (fmt.Errorf("no stream
// %d", s)) is none, and neither are guard clauses on parameters.
//
// The target must also release the lock before it returns, on every
// path, unless the invariant says returns_held: true. A return that every
// path reaches with the lock held, after the deferred calls, is reported
// there: every later acquisition blocks. Panics are not returns.
//
// The lock is identified through go/types, through parentheses, & and *,
// through a local pointer bound once (p := &mu; p.Lock()), and through an
// embedded mutex (r.Lock() where r embeds sync.Mutex). For a field lock in
// a method of the type that declares the field, the lock must be the
// receiver's: another value's mutex of the same type is another lock.
// Helpers listed under via acquire the lock when called; each must be
// declared in the package and itself acquire the lock on every path
// without releasing it, or the invariant is reported as unverifiable.
//
// A finding is reported at the first statement that does work, or the
// first return, where the lock is not held.
package hold
