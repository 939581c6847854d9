// Package lockorder defines an Analyzer that checks guardlint's lock_order
// invariants.
//
// # Analyzer lock_order
//
// lock_order: check that locks are taken in a declared order
//
// An invariant of kind lock_order lists locks, package-level variables or
// fields, from the outermost to the innermost: a lock may be taken only
// while holding locks that come before it. Taking a lock while a lock
// after it in the list is held, on some path, is the reverse edge that
// lets two goroutines deadlock, and is reported at the acquisition with
// the site where the later lock was taken.
//
// Acquisitions are followed through calls: a call made while holding a
// lock, of a function that takes an earlier lock itself or through the
// functions it calls, is reported at the call, with the call path and the
// site of the acquisition at its end. What a function takes is found by
// the acquires analyzer, through the package and, as analysis facts,
// across packages, so the order is checked in every package that can
// name one of its locks, without anyone naming the functions.
//
// Lock and RLock both take a lock (a read lock waits for a writer that
// waits behind the reader's other lock); TryLock does not block and is
// not an acquisition. With unlisted: last, every lock the list does not
// name comes after the listed ones: taking a listed lock while holding
// any other mutex is reported too.
//
// Limits: which value's field is locked is not told apart (two values
// of one type hold the same lock as far as the order goes, and their
// nesting is not checked); a function that returns with a lock held is
// not known to hold it for its caller; function literals handed to other
// functions, function values and interface methods of other packages are
// not followed.
package lockorder
