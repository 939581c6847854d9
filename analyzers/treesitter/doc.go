// Package treesitter checks the invariants written for C, C++, CUDA and
// Rust (`lang: c | cpp | cuda | rust`). It expands each invariant's
// `files` globs, skips files whose bytes cannot contain a target's name,
// parses the rest in parallel with tree-sitter, finds the target functions
// by qualified name and checks the call, forbid and hold rules over the
// live code of their bodies, as the language front ends (cfamily,
// rustlang) decide it.
//
// It fails closed: a glob that matches no file, a function that is found
// nowhere or more than once (without `all: true`), a target function whose
// text does not parse (an ERROR or MISSING node inside it), and a pattern
// that does not parse in the target's language are reported as "cannot
// verify", never as a pass.
//
// Findings have the message style of the Go analyzers: "invariant ID:
// what is wrong (why: ...; see REF)".
package treesitter
