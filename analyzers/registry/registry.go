// Package registry lists guardlint's rule kinds. Adding a kind is one
// line here, beside the kind's own package; every driver, the loader, the
// tree-sitter front end and the prover find the kind through this list.
package registry

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/ignores"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/kinds/excludes"
	"github.com/guardlint/guardlint/analyzers/kinds/forbid"
	"github.com/guardlint/guardlint/analyzers/kinds/guardedby"
	"github.com/guardlint/guardlint/analyzers/kinds/hold"
	lockorder "github.com/guardlint/guardlint/analyzers/kinds/lockorder"
	neveracquires "github.com/guardlint/guardlint/analyzers/kinds/neveracquires"
	"github.com/guardlint/guardlint/analyzers/kinds/order"
	"github.com/guardlint/guardlint/analyzers/kinds/owns"
	"github.com/guardlint/guardlint/analyzers/kinds/requires"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Kinds are the rule kinds, in the order the docs present them.
var Kinds = []core.Kind{
	call.Kind,
	hold.Kind,
	owns.Kind,
	guardedby.Kind,
	forbid.Kind,
	order.Kind,
	requires.Kind,
	excludes.Kind,
	lockorder.Kind,
	neveracquires.Kind,
}

// Specs returns what the loader needs of every kind.
func Specs() []invariants.KindSpec {
	out := make([]invariants.KindSpec, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.KindSpec
	}
	return out
}

// Load reads invariants files or directories with every kind.
func Load(paths ...string) (*invariants.Set, error) {
	return invariants.Load(Specs(), paths...)
}

// Files returns a source of invariants that loads the files once.
func Files(paths ...string) guardconf.Source {
	return guardconf.Files(Specs(), paths...)
}

// Analyzers returns the analyzers to run, reading invariants from src: the
// Go analyzer of every kind checked for Go and, last, the suppression
// check. Each call builds fresh analyzer values bound to src, so drivers
// (the CLI, go vet, golangci-lint, nogo) share no global state.
func Analyzers(src guardconf.Source) []*analysis.Analyzer {
	return Suite(guardconf.New(src))
}

// Suite is Analyzers over a guardconf analyzer that the caller shares
// with analyzers of its own (the drivers' report of the invariants of
// other languages).
func Suite(conf *analysis.Analyzer) []*analysis.Analyzer {
	var rules []*analysis.Analyzer
	for _, k := range Kinds {
		if k.Analyzer != nil {
			rules = append(rules, k.Analyzer(conf))
		}
	}
	return append(rules, ignores.New(conf, rules...))
}
