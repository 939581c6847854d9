// Package excludes defines an Analyzer that checks guardlint's excludes
// invariants.
//
// # Analyzer excludes
//
// excludes: check that functions are never called with a lock held
//
// An invariant of kind excludes names target functions (a blocking wait,
// a function that takes the lock itself, a callback) and a lock: a
// package-level variable or a field. No call of a target may happen
// where the lock is held, in either mode, on any path leading to it.
//
// A function that calls a target where its own body leaves the lock as
// its callers had it passes the exclusion on: its callers must not hold
// the lock either when they call it. The exclusion follows callers
// through the package and, as an analysis fact, into every package that
// imports it, and a caller that holds the lock is reported at its call
// with the call path to the target. A body that gives the lock up before
// the call (Unlock, then the call, then Lock again) decides for itself
// and passes nothing on.
//
// A target used as a value is followed where it is handed to a call (the
// callee may call it then: the lock must not be held at that call); a
// target stored, returned or assigned is reported, since who calls it
// later cannot be followed. A goroutine starts with no lock held, so a
// target called in a go statement is not under the caller's locks.
//
// Limits: calls through function values and interface methods of other
// functions are not followed; which value's field is held is not tracked
// (holding x.mu counts as holding y.mu of the same field); a function
// that returns with the lock held is not known to hold it for its caller.
package excludes
