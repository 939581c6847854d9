// Package treesitter is the tree-sitter front end's facts API: what the
// kinds' checks and the prover read of C, C++, CUDA, Rust and Metal code.
// A Function is one definition with the facts of its language (calls,
// exits, guards, acquisitions and the stretch they hold their lock over,
// dominance, field writes, lock contracts, the callees a call reaches),
// as the language front ends (cfamily, rustlang) decide them; the facets
// (FunctionRule, FilesRule, FieldRule and the interfaces beside them) are
// what a kind implements to be checked here. Prepare reads what an
// invariant needs before its files are parsed (its patterns, its
// configuration, the files of its globs, what git ignores left out), and
// a Source is an invariant's code as guardlint prove mutates it.
//
// The run that checks a set of invariants over their files (parsing in
// parallel, dispatching to the facets, suppressions) is
// analyzers/nativecheck, which imports this package; this package never
// imports it.
package treesitter
