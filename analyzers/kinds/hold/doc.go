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
// Statements that do no work may come before the lock: empty statements,
// declarations without a value, declarations whose values are constants
// or the lock's own address, and defer statements. Everything else,
// guard clauses included, counts as work.
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
