package forbid

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "forbid"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the forbid rule kind.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  invariants.Langs,
		Keys:   []string{"call"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{function: p.Reset, forbid: {call: (*p.Encoder).release}}`,
		invariants.LangCPP: `{function: Buffer::reset, forbid: {call: enc->release}}`,
	},
	Suggest: suggest,
}

// Rule: the target contains no call of Call that runs or might run.
type Rule struct {
	Call invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	return &Rule{Call: d.Name("call")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name { return []*invariants.Name{&r.Call} }

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	return core.Targets(inv) + " must not call " + r.Call.Short()
}

// ruleOf returns the forbid rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
