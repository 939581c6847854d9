package order

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "order"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the order rule kind.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  invariants.Langs,
		Keys:   []string{"first", "then"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{function: p.Load, order: {first: p.checkBounds, then: (*p.Table).read}}`,
		invariants.LangCPP: `{function: load, order: {first: check_bounds, then: read}}`,
	},
	Suggest: suggest,
}

// Rule: every live call to Then is preceded, on every path from the
// function's entry, by a call to First.
type Rule struct {
	First, Then invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	return &Rule{First: d.Name("first"), Then: d.Name("then")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name { return []*invariants.Name{&r.First, &r.Then} }

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	return core.Targets(inv) + " must call " + r.First.Short() + " before " + r.Then.Short()
}

// ruleOf returns the order rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
