package excludes

import (
	_ "embed"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "excludes"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the excludes rule kind: Go across packages, and C, C++, CUDA
// and Rust within the files of the invariant.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{Name: Name, Langs: invariants.Langs, Keys: []string{"lock"}, Decode: decode},
	Analyzer: New,
	Schema:   schema,
	Suggest:  suggest,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{functions: [p.Wait], excludes: {lock: p.evalMu}}`,
		invariants.LangCPP: `{functions: [Stream::synchronize], excludes: {lock: eval_mu}}`,
	},
}

//go:embed doc.go
var doc string

// New returns an excludes analyzer reading invariants from the given
// guardconf analyzer. It exports facts, so drivers run it on the
// dependencies of the packages they check too.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	check := func(r *rule.Rule) {
		if cs := contracts(r); len(cs) > 0 {
			newChecker(r, cs).run()
		}
	}
	return rule.NewAnalyzer(Name, docs.Extract(doc, "excludes"), conf, check, rule.Facts(new(Excluded)))
}

// Rule: no call of the target functions happens with Lock held, in
// either mode. A function that calls one of them where its own body does
// not decide whether the lock is held passes the exclusion to its
// callers, and so on, across packages.
type Rule struct {
	Lock invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	return &Rule{Lock: d.Name("lock")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name { return []*invariants.Name{&r.Lock} }

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	return "no call of " + core.Targets(inv) + " may hold " + r.Lock.Short()
}

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": every package that imports
// the lock's or the targets' package may call a target.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	return append([]string{r.Lock.Pkg}, inv.Packages()...)
}

// MutantPackages implements mutate.Spread: the calls a revert brings
// under the lock are in the lock's package and the targets'.
func (r *Rule) MutantPackages(inv *invariants.Invariant) []string {
	out := inv.Packages()
	if !slices.Contains(out, r.Lock.Pkg) {
		out = append(out, r.Lock.Pkg)
	}
	return out
}

// ruleOf returns the excludes rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
