package invariants

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rule is the rule of one invariant: what must hold at its target. Each
// rule kind has its own type, in the kind's package, which the kind's
// KindSpec decodes; the model knows only this interface, so that a kind
// is added without touching the loader.
type Rule interface {
	// Kind is the rule's kind: its key in the invariants file.
	Kind() Kind
	// Names returns the names the rule refers to (a callee, a lock,
	// writers, helpers), so that drivers can resolve or report them
	// without knowing the kind.
	Names() []*Name
}

// KindSpec describes a rule kind to the loader: its key, the target it
// takes, the languages it is checked for, and how its mapping decodes.
type KindSpec struct {
	// Name is the rule's key in an invariant: `call`, `hold` ...
	Name Kind
	// Field says that the kind targets a field (`field:`) instead of
	// functions (`function:` or `functions:`).
	Field bool
	// NoTarget says that the kind takes neither functions nor a field:
	// its rule names what it checks (lock_order names its locks, and is
	// checked wherever they are taken). The rule then implements
	// ScopeRule for Go.
	NoTarget bool
	// ListKey, when set, lets the rule be written as a list instead of a
	// mapping: `lock_order: [a, b]` is `lock_order: {locks: [a, b]}`
	// with ListKey "locks".
	ListKey string
	// Langs are the languages the kind is checked for; an invariant of
	// another language with this rule is an error, not a skipped check.
	Langs []Lang
	// Keys are the keys the rule's mapping may hold.
	Keys []string
	// Decode reads the rule's mapping. It reports problems through the
	// decoder, which collects them with their positions, and returns the
	// rule even when it is incomplete: the loader drops the invariant
	// when any error was reported.
	Decode func(d *RuleDecoder) Rule
}

// ScopeRule is implemented by the Go rules of kinds that take no target
// (KindSpec.NoTarget): the packages the rule's own names live in stand
// for the targets' packages, so that the drivers load them, and a
// package that is gone is reported like a target's.
type ScopeRule interface {
	Rule
	// Packages returns the import paths the rule's names live in.
	Packages() []string
}

// RuleDecoder reads the mapping of one rule for its kind's Decode. Every
// problem is reported at its position in the invariants file.
type RuleDecoder struct {
	d    *decoder
	rule field            // the rule's key and mapping
	m    map[string]field // the mapping's keys, checked against KindSpec.Keys
	inv  string           // "invariant ID", for messages
	ctx  nameContext
}

// Lang is the language of the invariant the rule belongs to.
func (r *RuleDecoder) Lang() Lang { return r.ctx.lang }

// Has reports whether the mapping sets key.
func (r *RuleDecoder) Has(key string) bool {
	_, ok := r.m[key]
	return ok
}

// Name reads a required name: a Go name, or a token pattern for the
// tree-sitter languages.
func (r *RuleDecoder) Name(key string) Name {
	v, ok := r.m[key]
	if !ok {
		r.d.errorf(r.rule.value, "%s: %s: missing `%s`", r.inv, r.rule.key.Value, key)
		return Name{}
	}
	n, _ := r.d.name(v, r.rule.key.Value+"."+key, r.ctx)
	return n
}

// Names reads an optional list of names or patterns.
func (r *RuleDecoder) Names(key string) []Name {
	v, ok := r.m[key]
	if !ok {
		return nil
	}
	return r.d.names(v, r.rule.key.Value+"."+key, r.ctx)
}

// Patterns reads a required pattern or list of patterns, any of which
// satisfies the rule (alternatives: `to: [enc->retain, NS::RetainPtr]`).
// A list is for the tree-sitter languages; a Go rule names one function
// (or declares helpers under `via`).
func (r *RuleDecoder) Patterns(key string) []Name {
	v, ok := r.m[key]
	if !ok || v.value.Kind != yaml.SequenceNode {
		return []Name{r.Name(key)}
	}
	if !r.ctx.lang.TreeSitter() {
		r.d.errorf(v.value, "%s: %s.%s: a list of alternatives is checked for lang %s; for Go name one function", r.inv, r.rule.key.Value, key, langList(treeSitterLangs()))
		return []Name{{}}
	}
	return r.d.names(v, r.rule.key.Value+"."+key, r.ctx)
}

// NativeOnly reports the keys given that are checked only for the
// tree-sitter languages, when the invariant is written in Go.
func (r *RuleDecoder) NativeOnly(keys ...string) {
	if r.ctx.lang.TreeSitter() {
		return
	}
	for _, k := range keys {
		if v, ok := r.m[k]; ok {
			r.d.errorf(v.key, "%s: %s.%s is checked for lang %s, not for Go", r.inv, r.rule.key.Value, k, langList(treeSitterLangs()))
		}
	}
}

// Functions reads an optional list of function names: Go names, or
// scoped names (`Class::method`) for the tree-sitter languages.
func (r *RuleDecoder) Functions(key string) []Name {
	v, ok := r.m[key]
	if !ok {
		return nil
	}
	var out []Name
	for i, item := range r.d.seq(v, r.rule.key.Value+"."+key) {
		if n, ok := r.d.target(field{key: v.key, value: item}, fmt.Sprintf("%s.%s[%d]", r.rule.key.Value, key, i), r.ctx); ok {
			out = append(out, n)
		}
	}
	return out
}

// Bool reads an optional boolean; absent is false.
func (r *RuleDecoder) Bool(key string) bool {
	v, ok := r.m[key]
	if !ok {
		return false
	}
	b, _ := r.d.boolean(v, r.rule.key.Value+"."+key)
	return b
}

// Enum reads an optional string that must be one of values; absent is
// the first value.
func (r *RuleDecoder) Enum(key string, values ...string) string {
	v, ok := r.m[key]
	if !ok {
		return values[0]
	}
	s, ok := r.d.str(v, r.rule.key.Value+"."+key)
	if !ok {
		return values[0]
	}
	if !slices.Contains(values, s) {
		r.d.errorf(v.value, "%s: %s.%s %q: want %s", r.inv, r.rule.key.Value, key, s, strings.Join(values, " or "))
		return values[0]
	}
	return s
}

// Errorf reports a problem with the value of key, at that value: for the
// checks a kind makes beyond the shape of its keys.
func (r *RuleDecoder) Errorf(key, format string, args ...any) {
	at := r.rule.value
	if v, ok := r.m[key]; ok {
		at = v.value
	}
	r.d.errorf(at, "%s: %s.%s: %s", r.inv, r.rule.key.Value, key, fmt.Sprintf(format, args...))
}

// Mode reads an optional lock mode; absent is exclusive.
func (r *RuleDecoder) Mode(key string) LockMode {
	return r.d.lockMode(r.m, key, r.rule.key.Value+"."+key)
}

// GoOnly reports the keys given that are not checked for the tree-sitter
// languages, when the invariant is written in one of them.
func (r *RuleDecoder) GoOnly(keys ...string) {
	if !r.ctx.lang.TreeSitter() {
		return
	}
	for _, k := range keys {
		if v, ok := r.m[k]; ok {
			r.d.errorf(v.key, "%s: %s.%s is not checked for lang %s", r.inv, r.rule.key.Value, k, r.ctx.lang)
		}
	}
}

// decodeRule decodes the mapping of an invariant's rule with its kind's
// spec.
func (d *decoder) decodeRule(spec *KindSpec, f field, what string, ctx nameContext) Rule {
	if spec.ListKey != "" && f.value.Kind == yaml.SequenceNode {
		m := map[string]field{spec.ListKey: f}
		return spec.Decode(&RuleDecoder{d: d, rule: f, m: m, inv: what, ctx: ctx})
	}
	m := d.mapping(f.value, what+": "+string(spec.Name), spec.Keys...)
	if m == nil {
		return nil
	}
	return spec.Decode(&RuleDecoder{d: d, rule: f, m: m, inv: what, ctx: ctx})
}
