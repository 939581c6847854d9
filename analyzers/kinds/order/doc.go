// Package order defines an Analyzer that checks guardlint's order
// invariants.
//
// # Analyzer order
//
// order: check that one call happens before another on every path
//
// An invariant of kind order names target functions and two functions,
// first and then. Every live call of then in a target must be preceded, on
// every path from the function's entry, by a call of first: a bounds check
// before the read it protects, a barrier before the dispatch that depends
// on it. A call of first inside the arguments of then counts, since Go
// evaluates arguments before the call. A deferred call of first runs at
// exit and does not count. A target with no live call of then is reported
// too: the ordered pair has gone, and the invariant no longer checks
// anything.
package order
