// Package forbid defines an Analyzer that checks guardlint's forbid
// invariants.
//
// # Analyzer forbid
//
// forbid: check that a function does not call a forbidden function
//
// An invariant of kind forbid names target functions and a function they
// must not call, resolved through go/types. Every call that runs or might
// run is reported: a live call, a call in a stored or deferred literal, a
// call started by go, and a method value that might be called later. A
// call that provably never runs (a constant-false branch, after a
// terminating statement) is not.
package forbid
