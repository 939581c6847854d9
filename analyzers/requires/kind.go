package requires

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "requires"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the requires rule kind: Go only, since it follows calls across
// functions and packages through go/types.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  []invariants.Lang{invariants.LangGo},
		Keys:   []string{"lock", "mode", "acquire", "release"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo: `{function: p.encodeLocked, requires: {lock: p.evalMu}}`,
	},
	Suggest: suggest,
}

// Rule: every call of the target functions happens with Lock held in
// Mode. A function that calls one of them without holding the lock
// requires it in turn, and so on through its callers, across packages; an
// entry point (exported, reached through an interface, a literal passed
// elsewhere, a goroutine) that requires the lock is a finding.
type Rule struct {
	Lock invariants.Name
	Mode invariants.LockMode
	// Acquire lists helpers whose call takes Lock (in Mode); Release lists
	// helpers whose call gives it up.
	Acquire, Release []invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	return &Rule{Lock: d.Name("lock"), Mode: d.Mode("mode"), Acquire: d.Names("acquire"), Release: d.Names("release")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name {
	out := []*invariants.Name{&r.Lock}
	for i := range r.Acquire {
		out = append(out, &r.Acquire[i])
	}
	for i := range r.Release {
		out = append(out, &r.Release[i])
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	s := "every call of " + core.Targets(inv) + " must hold " + r.Lock.Short()
	if r.Mode == invariants.Shared {
		s += " (shared)"
	}
	return s
}

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": every package that imports
// the lock's or the operations' package may call an operation.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	return append([]string{r.Lock.Pkg}, inv.Packages()...)
}

// ruleOf returns the requires rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
