package call

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "call"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the call rule kind.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  invariants.Langs,
		Keys:   []string{"to", "every_path", "via"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{function: p.F, call: {to: (*p.Encoder).retain, every_path: true}}`,
		invariants.LangCPP: `{function: Buffer::get, call: {to: enc->retain}}`,
	},
	Suggest: suggest,
}

// Rule: the target contains a live call to To.
type Rule struct {
	To invariants.Name
	// Or are further patterns, any of which satisfies the rule as To does
	// (`to: [enc->retain, NS::RetainPtr]`); tree-sitter languages only.
	Or []invariants.Name
	// EveryPath requires the call on every path from entry to every return.
	EveryPath bool
	// Via lists helpers whose call counts as a call to To. Each helper must
	// itself contain a live call to To on every path, or the invariant is
	// reported as unverifiable.
	Via []invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	to := d.Patterns("to")
	return &Rule{To: to[0], Or: to[1:], EveryPath: d.Bool("every_path"), Via: d.Functions("via")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name {
	out := []*invariants.Name{&r.To}
	for i := range r.Or {
		out = append(out, &r.Or[i])
	}
	for i := range r.Via {
		out = append(out, &r.Via[i])
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	s := core.Targets(inv) + " must call " + r.callees()
	if r.EveryPath {
		s += " on every path"
	}
	return s
}

// callees names the callee and its alternatives: `enc->retain or
// NS::RetainPtr`.
func (r *Rule) callees() string {
	s := r.To.Short()
	for _, n := range r.Or {
		s += " or " + n.Short()
	}
	return s
}

// ruleOf returns the call rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
