// Package ignores defines an Analyzer that reports suppression comments
// that are malformed or suppress nothing.
//
// # Analyzer ignores
//
// ignores: report //guardlint:ignore comments that are wrong or unused
//
// A suppression must name an invariant and give a reason:
//
//	//guardlint:ignore encoder-retained the test double has no pool
//
// A comment without a reason, naming an invariant that does not exist, or
// suppressing no finding of the rules it runs after is reported, so that
// suppressions cannot outlive what they excuse. The analyzer must run
// after every rule analyzer of its suite; New takes them as requirements.
package ignores
