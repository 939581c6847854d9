// Package core is guardlint's rule core: what every rule kind shares,
// whatever language its target is written in.
//
// It holds the one Finding type that every front end produces and every
// driver prints, the wording of a finding (the invariant id first, its why
// last), the rule-kind descriptor that the registry lists, and the
// language-neutral facts the front ends give the rules: occurrences of a
// pattern with whether and why they run, the state at a function's exits,
// and which statements do work. Each kind decides its verdict and words
// its messages once, over these facts, so that Go and C++ say the same
// thing about the same mistake.
//
// The core imports no front end: the Go front end (go/types, go/cfg) and
// the tree-sitter front ends (C family, Rust) depend on it, never the
// other way round.
package core
