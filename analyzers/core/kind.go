package core

import (
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Kind describes one rule kind: everything the drivers need of it. Each
// kind's package declares one, and the registry lists them; nothing
// outside a kind's package needs to know which kinds exist.
//
// The facets that depend on a front end are methods of the kind's rule
// value (the invariants.Rule its Decode returns), so that the front ends
// and the prover find them by type assertion without importing the
// kinds:
//
//   - Rule (this package): the one-line description, for every kind;
//   - treesitter.Rule: the check over C, C++, CUDA and Rust code, for
//     kinds whose Langs hold a tree-sitter language;
//   - mutate.Rule: the Go mutant generators and vacuity test of guardlint
//     prove, for kinds checked for Go;
//   - native.Rule (analyzers/treesitter/native): the mutant generators and
//     vacuity test of guardlint prove for C, C++, CUDA and Rust.
//
// The registry's test checks that every kind has the facets its
// languages need, a schema entry and a section in docs/invariants.md.
type Kind struct {
	invariants.KindSpec
	// Analyzer returns the kind's Go analyzer, reading invariants from
	// conf (a guardconf analyzer); nil when the kind is not checked for
	// Go.
	Analyzer func(conf *analysis.Analyzer) *analysis.Analyzer
	// Schema is the kind's part of the JSON Schema of the invariants
	// file: {"rule": the rule's mapping, "go": what its names are for
	// Go, "treeSitter": what they are for C, C++, CUDA and Rust}. The
	// registry assembles invariants/schema.json from the kinds' parts.
	Schema []byte
	// Examples are one invariant of the kind per language it is checked
	// for, as a YAML flow mapping of its target and rule: the registry's
	// test decodes each and checks the facets of the value; Go names go
	// under "go", token patterns under "cpp" (or another tree-sitter
	// language).
	Examples map[invariants.Lang]string
	// Suggest proposes invariants of the kind from the facts of a fix
	// (`guardlint suggest`); nil when the kind is not proposed from a
	// fix. The registry keeps the proposals for the languages the kind
	// is checked for, and the command proves each against the revert.
	Suggest func(c *Change) []Proposal
}

// Rule is what every rule value provides beside invariants.Rule.
type Rule interface {
	invariants.Rule
	// Summary states in one line what the invariant requires, from its
	// targets and rule: the short description of its SARIF rule and its
	// line in `guardlint list`.
	Summary(inv *invariants.Invariant) string
}

// Importers is the facet of the rules of kinds that concern more than
// their targets' packages: every package that imports one of the packages
// Importers names may break the invariant (it may write an exported owned
// field, or call an operation that needs a lock), so the drivers load and
// check those packages too. A kind of that sort that lacks the facet
// checks its targets' packages alone and passes what their importers do:
// the registry's facet table (analyzers/registry/facets_test.go) says
// which kinds have it.
type Importers interface {
	Importers(inv *invariants.Invariant) []string
}

// Summary describes an invariant in one line; see Rule.
func Summary(inv *invariants.Invariant) string {
	if r, ok := inv.Rule.(Rule); ok {
		return r.Summary(inv)
	}
	return "invariant " + inv.ID
}

// Targets lists an invariant's functions in their short form, for
// summaries: (*p.T).m, p.F.
func Targets(inv *invariants.Invariant) string { return ShortNames(inv.Functions) }

// ShortNames lists names in their short form, comma-separated.
func ShortNames(ns []invariants.Name) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += n.Short()
	}
	return s
}
