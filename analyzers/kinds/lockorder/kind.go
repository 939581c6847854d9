package lockorder

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/acquires"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "lock_order"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the lock_order rule kind. It takes no target: a lock order
// holds wherever its locks are taken, so Go checks every package that
// can name one of them (across packages by facts), and C, C++, CUDA and
// Rust every function of the invariant's files.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{Name: Name, NoTarget: true, ListKey: "locks", Langs: invariants.Langs, Keys: []string{"locks", "unlisted"}, Decode: decode},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{lock_order: [p.evalMu, (p.registry).mu]}`,
		invariants.LangCPP: `{lock_order: {locks: [eval_mu_, streams_mu_], unlisted: last}}`,
	},
}

//go:embed doc.go
var doc string

// New returns a lock_order analyzer reading invariants from the given
// guardconf analyzer. What functions take comes from the acquires
// analyzer, whose facts cross packages.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	acq := acquires.For(conf)
	return rule.NewAnalyzer(Name, docs.Extract(doc, string(Name)), conf, func(r *rule.Rule) {
		for _, o := range orders(r) {
			newChecker(r, r.Pass.ResultOf[acq].(*acquires.Info), o).run()
		}
	}, rule.Needs(acq))
}

// Unlisted says what becomes of the locks the order does not list.
const (
	// UnlistedIgnore: the order says nothing about them.
	UnlistedIgnore = "ignore"
	// UnlistedLast: every other lock comes after the listed ones, so no
	// listed lock may be taken while another lock is held.
	UnlistedLast = "last"
)

// Rule: a lock of Locks may be taken only while holding locks that come
// before it in the list.
type Rule struct {
	Locks    []invariants.Name
	Unlisted string
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	r := &Rule{Locks: d.Names("locks"), Unlisted: d.Enum("unlisted", UnlistedIgnore, UnlistedLast)}
	seen := map[string]bool{}
	for _, n := range r.Locks {
		if seen[n.Raw] {
			d.Errorf("locks", "%s is listed twice", n.Raw)
		}
		seen[n.Raw] = true
	}
	if len(r.Locks) < 2 && r.Unlisted != UnlistedLast {
		d.Errorf("locks", "an order needs two locks or more (or one, with unlisted: last)")
	}
	return r
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name {
	out := make([]*invariants.Name, len(r.Locks))
	for i := range r.Locks {
		out[i] = &r.Locks[i]
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(*invariants.Invariant) string {
	s := "locks are taken in the order " + r.order()
	if r.Unlisted == UnlistedLast {
		s += ", every other lock after them"
	}
	return s
}

// order words the list for messages: a → b → c.
func (r *Rule) order() string {
	s := make([]string, len(r.Locks))
	for i, n := range r.Locks {
		s[i] = n.Short()
	}
	return strings.Join(s, " → ")
}

// Packages implements invariants.ScopeRule: the locks' packages.
func (r *Rule) Packages() []string {
	var out []string
	for _, n := range r.Locks {
		if n.Pkg != "" && !slices.Contains(out, n.Pkg) {
			out = append(out, n.Pkg)
		}
	}
	return out
}

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": every package that imports a
// lock's package may take it, or call what does.
func (r *Rule) Importers(*invariants.Invariant) []string { return r.Packages() }

// FollowedLocks implements acquires.Rule.
func (r *Rule) FollowedLocks() []invariants.Name { return r.Locks }

// FollowsUnresolved implements acquires.Rule: calls that cannot be
// followed are not reported by a lock order.
func (*Rule) FollowsUnresolved() bool { return false }

// ruleOf returns the lock_order rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
