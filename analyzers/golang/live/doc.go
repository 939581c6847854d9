// Package live defines an Analyzer that computes which code of each
// function runs when the function runs.
//
// # Analyzer live
//
// live: compute the live code of every function for guardlint's rules
//
// The analyzer reports nothing. Its result answers, for a function
// declaration or literal, which calls run and in which order, and for every
// call that does not run, why not. "Live" follows guardlint's rules:
//
//   - comments and strings are not code (the AST has neither);
//   - a branch whose condition is a constant false is dead, and so is the
//     else of a constant true; constants are folded by the type checker,
//     so `if debug` with `const debug = false` is dead, `if !true` too;
//   - code after a terminating statement is dead: a return, a panic, an
//     endless loop, and a call of a function that never returns, as x/tools'
//     ctrlflow decides it: a function of this package whose body has no
//     reachable return (a helper that always panics or exits), and one of
//     another package by ctrlflow's facts (os.Exit, log.Fatal, t.Fatal, a
//     helper of another package of the module);
//   - a function literal runs where it is called: immediately
//     (`func(){...}()`), at the function's exit (`defer func(){...}()`),
//     through a local variable bound once and called
//     (`f := func(){...}; f()`), or when passed to a function of the same
//     package that calls that parameter on every path. A literal started by
//     `go`, stored, returned or passed elsewhere cannot be shown to run as
//     part of the function, and its calls are recorded with that reason;
//   - a method value or function value that is never called is not a call;
//   - files excluded by build constraints are never loaded.
//
// Rules that require code (call, hold, order) use only live calls. Rules
// that prohibit code (forbid, owns) also count calls that merely might run,
// such as those in a stored literal: being unable to show that code runs
// is no proof that it does not.
package live
