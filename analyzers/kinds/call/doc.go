// Package call defines an Analyzer that checks guardlint's call
// invariants.
//
// # Analyzer call
//
// call: check that a function contains a live call it must make
//
// An invariant of kind call names target functions and a callee, resolved
// through go/types: a call of (*Encoder).retain is not a call of
// (*Buffer).retain, whatever the text says. The target holds the invariant
// when it contains a live call of the callee (see package live for what
// counts as live); with every_path, the call must run on every path from
// the entry to every return, where a deferred call counts for the returns
// after its defer statement.
//
// Helpers listed under via count as the callee. Each helper must be
// declared in the target's package and itself call the callee on every
// path, or the invariant is reported as unverifiable: a helper that stops
// making the call must not keep its callers green.
//
// A missing call is reported at the dead copy of the call when there is
// one (a commented-out call has none; a call under `if false` has one),
// naming why it does not count, and otherwise at the target's name.
package call
