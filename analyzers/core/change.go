package core

import (
	"cmp"
	"fmt"

	"github.com/guardlint/guardlint/invariants"
)

// The facts of a fix, for `guardlint suggest`: what the lines a fix added
// and removed hold, as a front end reads them, with names already written
// the way invariants files write them. A kind that can be proposed from a
// fix turns the facts into proposals (Kind.Suggest); the command proves
// every proposal against the fix's revert and prints those that hold.
// Which names are worth a proposal (the module's own functions, not the
// standard library's) is the front end's decision: it knows the language.

// Origin is where a fact of a fix is: the function it is in, the package
// or files that hold it, and the line of the fix it comes from.
type Origin struct {
	// Lang is the language of the code.
	Lang invariants.Lang
	// Package is the Go package, relative to the module (./runtime);
	// Files is the glob of a C, C++, CUDA or Rust file.
	Package, Files string
	// MoreFiles are the globs of other files that a rule on the fact
	// reads besides Files: the file that defines a function it names
	// (an excluded function defined in another header).
	MoreFiles []string
	// Erase are the object-like macros the C family's grammar cannot
	// read a file without, which a rule on the fact erases before
	// parsing (the `erase` key: SPDLOG_INLINE before a definition).
	Erase []string
	// Function is the function the fact is in, as an invariant names it.
	Function string
	// File and Line are the line of the fix the fact comes from: the
	// file's base name, and the line in the file after the fix or, when
	// Removed, in the file before it.
	File    string
	Line    int
	Removed bool
}

// At is the line of the fix, for the comment above a proposal:
// "backend_cpu.go:50", "registry.cc:30 (removed)".
func (o *Origin) At() string {
	at := fmt.Sprintf("%s:%d", o.File, o.Line)
	if o.Removed {
		at += " (removed)"
	}
	return at
}

// Compare orders facts as the fix's lines: the added lines first, then
// the removed ones, each by package or files, file and line.
func (o *Origin) Compare(p *Origin) int {
	return cmp.Or(
		cmpBool(o.Removed, p.Removed),
		cmp.Compare(o.Package+o.Files, p.Package+p.Files),
		cmp.Compare(o.File, p.File),
		cmp.Compare(o.Line, p.Line))
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Change is what a fix's diff holds.
type Change struct {
	// Calls are the live calls the fix added.
	Calls []AddedCall
	// Locks are the locks the fix added that hold for the rest of a
	// function's body.
	Locks []AddedLock
	// Checks are the checks the fix added: a condition that calls a
	// function, and the call it protects.
	Checks []AddedCheck
	// RemovedCalls are calls the fix removed from a function that makes
	// them no more.
	RemovedCalls []RemovedCall
	// RemovedWrites are writes of a field the fix removed.
	RemovedWrites []RemovedWrite
	// Guarded are the field accesses the fix put under a lock: the
	// facts a guarded_by kind proposes from.
	Guarded []GuardedAccess
	// Released are the calls the fix took out from under a lock.
	Released []ReleasedCall
}

// GuardedAccess is an access of Field that a fix made with Lock held (it
// added the lock around it, or the access inside the locked region);
// Function is where.
type GuardedAccess struct {
	Origin
	Field, Lock string
	Mode        invariants.LockMode
	// Write says the access writes the field.
	Write bool
}

// AddedCall is a call a fix added to Function.
type AddedCall struct {
	Origin
	// Callee is the function called: its name (Go) or the call's token
	// pattern (`enc->retain`).
	Callee string
}

// AddedLock is a lock a fix added at the top of Function's body.
type AddedLock struct {
	Origin
	Lock string
	Mode invariants.LockMode
	// Held are the functions Function calls while it holds the lock,
	// where the front end can tell (Go).
	Held []string
}

// AddedCheck is a check a fix added to Function: First is called in the
// condition, Then is the call it protects (in the branch, or after a
// guard clause that returns).
type AddedCheck struct {
	Origin
	First, Then string
}

// RemovedCall is a call a fix removed from Function, which no longer
// makes it.
type RemovedCall struct {
	Origin
	Callee string
}

// RemovedWrite is a write of Field that a fix removed from Function;
// Writers are the functions that write the field after the fix.
type RemovedWrite struct {
	Origin
	Field   string
	Writers []string
}

// Keys are the keys of a rule on an added lock, as hold and requires
// name it: the lock, and the mode when it is shared (exclusive is the
// default).
func (l AddedLock) Keys() []Key {
	keys := []Key{{Name: "lock", Value: l.Lock}}
	if l.Mode == invariants.Shared {
		keys = append(keys, Key{Name: "mode", Value: string(invariants.Shared)})
	}
	return keys
}
