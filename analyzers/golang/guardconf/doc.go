// Package guardconf defines an Analyzer that provides the invariants of a
// guardlint run to the rule analyzers.
//
// # Analyzer guardconf
//
// guardconf: provide the invariants to guardlint's rule analyzers
//
// The analyzer reports nothing. Its result is the loaded invariant set,
// plus a way to turn positions in invariants files into token.Pos values,
// so that an invariant that cannot be checked is reported at the line that
// declares it. The set comes from a Source given to New: analyzers read no
// environment and no stray files, and each New call builds fresh values,
// so several configurations can run in one process.
package guardconf
