// Package neveracquires defines an Analyzer that checks guardlint's
// never_acquires invariants.
//
// # Analyzer never_acquires
//
// never_acquires: check that callbacks never take a lock
//
// An invariant of kind never_acquires names target functions (completion
// handlers, callbacks, the tasks a worker runs) and a lock; with
// passed_to, every function handed to one of the named functions (a
// runner, a queue, a registration) is a target too, and with stored_in
// every function stored in one of the named fields (a completion handler
// kept for later): a function literal, or a named function or method
// used as a value. No target may take the
// lock, itself or through the functions it calls, in code that runs or
// may run (a literal handed to a function that may call it counts). The
// finding names the call path and the site of the acquisition; which
// functions take the lock is found by the acquires analyzer, through the
// package and, by facts, across packages.
//
// What cannot be followed is reported, never passed: a call of a function
// value or of an interface method in code a target runs (an interface
// method whose name is not exported is followed to the package's methods
// of that name, the only ones that can implement it), and a function
// handed to a passed_to function that does not name one.
//
// Limits: calls into packages that cannot name the lock's package are
// not followed further (they cannot take it but through values they are
// handed: the callback's own calls of function values are reported); code
// started by a go statement runs on another goroutine and is not the
// target's.
package neveracquires
