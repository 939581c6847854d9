// Package owns defines an Analyzer that checks guardlint's owns
// invariants.
//
// # Analyzer owns
//
// owns: check that a field is written only by its owning functions
//
// An invariant of kind owns names a field and the functions that own it.
// Every write of the field anywhere else is reported: an assignment, an
// increment, taking its address (which lets anything write it), and
// setting it in a composite literal. Code inside a function literal counts
// as the enclosing function's. A write counts unless it is provably dead
// (a constant-false branch, after a terminating statement): a write in a
// stored literal might still run, so it is reported.
//
// The check runs in every package that can see the field: the declaring
// package for an unexported field, every importer for an exported one.
// A field or owner that does not resolve is reported, in the declaring
// package, as an invariant that cannot be verified.
package owns
