// Package guardedby defines an Analyzer that checks guardlint's
// guarded_by invariants.
//
// # Analyzer guarded_by
//
// guarded_by: check that every read and write of a field holds its lock
//
// An invariant of kind guarded_by names a field and a lock: a field of the
// same value (`mu` guards `x.f` as `x.mu`) or a package variable. Every
// read and write of the field, through any value of its type, in every
// function of the packages that can see it, must happen while the lock of
// the same value is held: exclusive for a write, shared or exclusive for
// a read (with `reads: exclusive`, exclusive for a read too).
package guardedby
