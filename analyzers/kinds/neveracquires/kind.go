package neveracquires

import (
	_ "embed"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/acquires"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "never_acquires"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the never_acquires rule kind: Go only, since it follows calls
// across functions and packages through go/types.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{Name: Name, Langs: []invariants.Lang{invariants.LangGo}, Keys: []string{"lock", "passed_to", "stored_in"}, Decode: decode},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo: `{functions: [p.onComplete], never_acquires: {lock: p.evalMu, passed_to: [(*p.Lane).Enqueue]}}`,
	},
}

//go:embed doc.go
var doc string

// New returns a never_acquires analyzer reading invariants from the
// given guardconf analyzer. What functions take comes from the acquires
// analyzer, whose facts cross packages.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	acq := acquires.For(conf)
	return rule.NewAnalyzer(Name, docs.Extract(doc, string(Name)), conf, func(r *rule.Rule) {
		for _, inv := range r.OfKind() {
			check(r, r.Pass.ResultOf[acq].(*acquires.Info), inv)
		}
	}, rule.Needs(acq))
}

// Rule: no function that the targets run, themselves or through the
// functions they call, takes Lock. The targets are the invariant's
// functions, every function handed to a function of PassedTo (a runner,
// a queue, a registration of callbacks) and every function stored in a
// field of StoredIn (a completion handler kept for later).
type Rule struct {
	Lock     invariants.Name
	PassedTo []invariants.Name
	StoredIn []invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	return &Rule{Lock: d.Name("lock"), PassedTo: d.Functions("passed_to"), StoredIn: d.Names("stored_in")}
}

// Names implements invariants.Rule: the lock, then the functions
// callbacks are handed to.
func (r *Rule) Names() []*invariants.Name {
	names := make([]*invariants.Name, 1, 1+len(r.PassedTo)+len(r.StoredIn))
	names[0] = &r.Lock
	for i := range r.PassedTo {
		names = append(names, &r.PassedTo[i])
	}
	for i := range r.StoredIn {
		names = append(names, &r.StoredIn[i])
	}
	return names
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	s := core.Targets(inv)
	if len(r.PassedTo) > 0 {
		s += ", the functions handed to " + core.ShortNames(r.PassedTo)
	}
	if len(r.StoredIn) > 0 {
		s += ", the functions stored in " + core.ShortNames(r.StoredIn)
	}
	return s + " must never take " + r.Lock.Short()
}

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": the lock's package and its
// importers (they may take it), and those of the functions callbacks are
// handed to.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	out := append([]string{r.Lock.Pkg}, inv.Packages()...)
	for _, n := range slices.Concat(r.PassedTo, r.StoredIn) {
		if !slices.Contains(out, n.Pkg) {
			out = append(out, n.Pkg)
		}
	}
	return out
}

// FollowedLocks implements acquires.Rule.
func (r *Rule) FollowedLocks() []invariants.Name { return []invariants.Name{r.Lock} }

// FollowsUnresolved implements acquires.Rule: a call that cannot be
// followed is reported, not passed.
func (*Rule) FollowsUnresolved() bool { return true }

// ruleOf returns the never_acquires rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
