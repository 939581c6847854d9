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
// The comment names one invariant id and gives a reason. The analyzer
// reports nothing itself: the rule analyzers ask it whether a finding is
// suppressed, which marks the comment used, and the ignores analyzer
// reports comments that are malformed or suppress nothing.
package suppress
