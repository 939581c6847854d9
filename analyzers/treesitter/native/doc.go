// Package native is the C, C++, CUDA and Rust side of guardlint prove:
// the reverts of guarded code written in those languages, as text edits
// at the syntax nodes the tree-sitter front end reports for the guarded
// sites (the calls, guards and writes its rules judge), held in memory and
// never written to the working tree.
//
// The reverts are the Go ones, under the same names (mutant.OpDelete,
// mutant.OpLockDeleted ...), rendered in each language: `#if 0` for the
// C family and `#[cfg(any())]` for Rust (mutant.OpCompiledOut), `if
// (false)` and `if false`, a lambda or closure nobody calls, a temporary
// guard `std::lock_guard<M>{m};` and `let _ = m.lock()` (dialect.go,
// guard.go). A Code is the parsed files of one invariant with the
// definitions of its targets (treesitter.Source); the kinds' generators
// (the NativeMutants method of a rule value, see Rule) find their sites
// through its facts and build each mutant with Edits.
//
// A mutant that no longer parses where it was changed, or that adds a
// syntax error (an ERROR or MISSING node) anywhere in the file, is void:
// the recovered tree could hide or invent the very code a rule looks for,
// so it is never a kill. Nothing here compiles the mutant; under --test,
// a command that cannot build it says so with exit status 125 (see
// docs/prove.md).
package native

import "github.com/guardlint/guardlint/analyzers/mutant"

// Rule is the prover's facet of a rule kind checked for C, C++, CUDA or
// Rust: the rule value of such an invariant implements it, beside its
// tree-sitter check (treesitter.FunctionRule or FieldRule).
type Rule interface {
	// NativeOps lists the reverts the kind makes of every target in a
	// language (the matrix's columns), in order: a target gets each, or a
	// void mutant that says why it cannot.
	NativeOps(d Dialect) []string
	// NativeMutants returns the reverts of the invariant in its code.
	NativeMutants(c *Code) []*mutant.Mutant
	// NativeVacuity lists the reasons the invariant holds without
	// constraining any code (a pattern that matches only in comments,
	// string literals or dead code); nil when it constrains some.
	NativeVacuity(c *Code) []string
}
