// Package suppress defines an Analyzer that reads guardlint's suppression
// comments.
//
// # Analyzer suppress
//
// suppress: read //guardlint:ignore comments for the rule analyzers
//
// A finding is suppressed by a comment on its line or on the line above:
//
//	//guardlint:ignore encoder-retained the pool is bypassed in this test double
//
// The comment names one invariant id and gives a reason. Two more forms
// cover more: //guardlint:ignore-file <id> <reason>, anywhere in a file,
// covers the file, and //guardlint:ignore-begin <id> <reason> covers the
// lines up to the matching //guardlint:ignore-end <id>. The analyzer
// reports nothing itself: the rule analyzers ask it whether a finding is
// suppressed, which marks the comment used, and the ignores analyzer
// reports comments that are malformed or suppress nothing.
package suppress
