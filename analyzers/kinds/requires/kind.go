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

// Kind is the requires rule kind. For Go it follows calls across
// functions and packages through go/types; for C, C++, CUDA, Rust and
// Metal it checks every call by the scopes of the guards around it, and
// follows the callers of functions that cannot be called from outside
// their file (native.go).
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Langs:  invariants.Langs,
		Keys:   []string{"lock", "mode", "acquire", "release", "within"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{function: p.encodeLocked, requires: {lock: p.evalMu}}`,
		invariants.LangCPP: `{function: global_encoders, requires: {lock: encoders_mutex(), mode: shared}}`,
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
	// helpers whose call gives it up (Go only). For the tree-sitter
	// languages an acquire helper returns a guard: `auto g =
	// lock_encoders();`, `let _g = env_read_lock();`.
	Acquire, Release []invariants.Name
	// Within limits the check to the calls these functions make, each by
	// the guards of its own body (tree-sitter languages only): "in
	// get_command_encoder, global_encoders() is called under the lock".
	Within []invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	d.GoOnly("release")
	d.NativeOnly("within")
	r := &Rule{Lock: d.Name("lock"), Mode: d.Mode("mode"), Release: d.Names("release")}
	if d.Lang().TreeSitter() {
		r.Acquire, r.Within = d.Functions("acquire"), d.Functions("within")
	} else {
		r.Acquire = d.Names("acquire")
	}
	return r
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
	for i := range r.Within {
		out = append(out, &r.Within[i])
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	s := "every call of " + core.Targets(inv) + " must hold " + r.Lock.Short()
	if r.Mode == invariants.Shared {
		s += " (shared)"
	}
	if len(r.Within) > 0 {
		s += " in " + core.ShortNames(r.Within)
	}
	return s
}

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": every package that imports
// the lock's or the operations' package may call an operation.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	return append([]string{r.Lock.Pkg}, inv.Packages()...)
}

// ruleOf returns the requires rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }
