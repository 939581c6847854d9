package owns

import (
	_ "embed"

	"go/token"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "owns"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the owns rule kind.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Field:  true,
		Langs:  invariants.Langs,
		Keys:   []string{"writers"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{field: (p.Buffer).active, owns: {writers: [(*p.Buffer).set]}}`,
		invariants.LangCPP: `{field: Buffer::active, owns: {writers: [Buffer::set]}}`,
	},
	Suggest: suggest,
}

// Rule: the target field is written only inside Writers.
type Rule struct {
	Writers []invariants.Name
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	r := &Rule{Writers: d.Functions("writers")}
	if !d.Has("writers") {
		d.Name("writers") // reports it missing
	}
	return r
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule.
func (r *Rule) Names() []*invariants.Name {
	var out []*invariants.Name
	for i := range r.Writers {
		out = append(out, &r.Writers[i])
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	return inv.Field.Short() + " is written only by " + core.ShortNames(r.Writers)
}

// ruleOf returns the owns rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": an exported field may be
// written by every package that imports its package.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	if inv.Field != nil && token.IsExported(inv.Field.Member) {
		return []string{inv.Field.Pkg}
	}
	return nil
}
