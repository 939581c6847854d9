package hold

import (
	_ "embed"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "hold"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the hold rule kind.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  invariants.Langs,
		Keys:   []string{"lock", "mode", "via", "returns_held"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{function: p.Eval, hold: {lock: p.evalMu}}`,
		invariants.LangCPP: `{function: Registry::add, hold: {lock: mu}}`,
	},
	Suggest: suggest,
}

// Rule: Lock is held, in Mode, from before the first statement that does
// work to every return.
type Rule struct {
	Lock invariants.Name
	// Or are further locks, any of which held for the body satisfies the
	// rule (`lock: [mu_, detail::eval_mutex()]`); tree-sitter languages
	// only.
	Or   []invariants.Name
	Mode invariants.LockMode
	// Via lists helpers whose call acquires Lock (Go only). Each helper
	// must itself acquire the lock on every path and not release it.
	Via []invariants.Name
	// ReturnsHeld says that the target hands the lock to its caller
	// (`lockX()`-style helpers): it need not release it before it
	// returns.
	ReturnsHeld bool
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	d.GoOnly("via")
	lock := d.Patterns("lock")
	return &Rule{Lock: lock[0], Or: lock[1:], Mode: d.Mode("mode"), Via: d.Names("via"), ReturnsHeld: d.Bool("returns_held")}
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name {
	out := []*invariants.Name{&r.Lock}
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
	s := core.Targets(inv) + " must hold " + r.locks()
	if r.Mode == invariants.Shared {
		s += " (shared)"
	}
	return s + " for the body"
}

// locks names the lock and its alternatives: `mu or other_mu`.
func (r *Rule) locks() string {
	s := r.Lock.Short()
	for _, n := range r.Or {
		s += " or " + n.Short()
	}
	return s
}

// ruleOf returns the hold rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
