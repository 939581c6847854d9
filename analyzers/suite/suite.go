// Package suite assembles guardlint's analyzers: the rule analyzers, one
// per invariant kind, and the suppression check that runs after them. Each
// call builds fresh analyzer values bound to one source of invariants, so
// drivers (the CLI, go vet, golangci-lint, nogo) share no global state.
package suite

import (
	"github.com/guardlint/guardlint/analyzers/call"
	"github.com/guardlint/guardlint/analyzers/forbid"
	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/hold"
	"github.com/guardlint/guardlint/analyzers/ignores"
	"github.com/guardlint/guardlint/analyzers/order"
	"github.com/guardlint/guardlint/analyzers/owns"
	"github.com/guardlint/guardlint/analyzers/requires"
	"golang.org/x/tools/go/analysis"
)

// New returns the analyzers to run, reading invariants from src: the six
// rule analyzers and, last, the suppression check.
func New(src guardconf.Source) []*analysis.Analyzer {
	conf := guardconf.New(src)
	rules := []*analysis.Analyzer{call.New(conf), hold.New(conf), owns.New(conf), forbid.New(conf), order.New(conf), requires.New(conf)}
	return append(rules, ignores.New(conf, rules...))
}
