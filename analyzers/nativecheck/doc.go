// Package nativecheck checks the invariants written for C, C++, CUDA,
// Rust and Metal (`lang: c | cpp | cuda | rust | metal`): it is the run
// of the tree-sitter front end. It expands each invariant's `files`
// globs, skips files whose bytes cannot contain a target's name, parses
// the rest in parallel, finds the target functions by qualified name and
// hands each definition, or every function of the files, or every write
// of a field, to the rule through the facet the rule's kind implements
// (treesitter.FunctionRule, FilesRule, FieldRule). The rules judge over
// the facts of analyzers/treesitter; this package decides which code they
// see, reports what cannot be verified, and applies the suppression
// comments of those languages.
//
// It fails closed: a glob that matches no file, a function that is found
// nowhere or more than once (without `all: true`), a target function whose
// text does not parse (an ERROR or MISSING node inside it), and a pattern
// that does not parse in the target's language are reported as "cannot
// verify", never as a pass.
//
// Findings have the message style of the Go analyzers: "invariant ID:
// what is wrong (why: ...; see REF)".
package nativecheck
