package guardedby

import (
	_ "embed"
	"go/token"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Name is the kind's key in an invariant.
const Name invariants.Kind = "guarded_by"

// schema is the kind's part of the invariants file's JSON Schema.
//
//go:embed schema.json
var schema []byte

// Kind is the guarded_by rule kind: every read and write of a field
// happens with a lock of the same value held.
var Kind = core.Kind{
	KindSpec: invariants.KindSpec{
		Name:   Name,
		Field:  true,
		Langs:  invariants.Langs,
		Keys:   []string{"lock", "reads", "init", "held_in"},
		Decode: decode,
	},
	Analyzer: New,
	Schema:   schema,
	Suggest:  suggest,
	Examples: map[invariants.Lang]string{
		invariants.LangGo:  `{field: (*p.Raft).peers, guarded_by: {lock: mu}}`,
		invariants.LangCPP: `{field: KernelCache::cache_, guarded_by: {lock: mtx_, reads: shared}}`,
	},
}

// Rule: every read and write of the target field, through any value of
// its type, happens while Lock of the same value is held; a write needs
// it exclusive, a read needs it in the mode Reads says (Shared: either
// mode will do).
type Rule struct {
	// Lock is the lock as written. For Go it is a field of the guarded
	// value (`mu`, or a path through nested or embedded fields, `state.mu`)
	// or, when the type has no such field, a package variable (`mu` of the
	// field's package, `pkg.mu`); only the field's type tells the two
	// apart, so the Go analyzer resolves it. For C, C++, CUDA and Rust it
	// is a token pattern (`mtx_`, `kernel_mtx()`), and Raw and Pos are
	// set as for every pattern.
	Lock invariants.Name
	// Reads is the mode a read needs: Shared (the default) accepts the
	// lock held in either mode, Exclusive (a plain Mutex, or a field whose
	// reads must exclude the readers too) only the exclusive one.
	Reads invariants.LockMode
	// Init names set-up functions whose accesses need no lock: the value
	// they touch is not shared yet.
	Init []invariants.Name
	// HeldIn names functions whose callers hold the lock for their whole
	// body (C family and Rust; native.go): the invariant-file form of
	// Clang's EXCLUSIVE_LOCKS_REQUIRED on code that does not carry it.
	HeldIn []invariants.Name
	// native: decoded for a tree-sitter language, whose lock is a token
	// pattern.
	native bool
}

func decode(d *invariants.RuleDecoder) invariants.Rule {
	r := &Rule{Init: d.Functions("init"), native: d.Lang().TreeSitter()}
	// held_in is read by the tree-sitter facet only: for Go it is an
	// error, never a key silently ignored.
	d.NativeOnly("held_in")
	if r.native {
		r.HeldIn = d.Functions("held_in")
	}
	if r.native {
		r.Lock = d.Name("lock")
	} else {
		r.Lock.Raw, r.Lock.Pos = d.Str("lock")
	}
	r.Reads = invariants.LockMode(d.Enum("reads", string(invariants.Shared), string(invariants.Exclusive)))
	return r
}

// Kind implements invariants.Rule.
func (*Rule) Kind() invariants.Kind { return Name }

// Names implements invariants.Rule: the init functions and, for the
// tree-sitter languages, the lock's pattern. A Go lock is not a Go name
// the loader can resolve by itself (see Rule.Lock).
func (r *Rule) Names() []*invariants.Name {
	var out []*invariants.Name
	if r.native {
		out = append(out, &r.Lock)
	}
	for i := range r.Init {
		out = append(out, &r.Init[i])
	}
	for i := range r.HeldIn {
		out = append(out, &r.HeldIn[i])
	}
	return out
}

// Summary implements core.Rule.
func (r *Rule) Summary(inv *invariants.Invariant) string {
	s := "every read and write of " + inv.Field.Short() + " holds " + r.Lock.Raw
	if r.Reads == invariants.Exclusive {
		s += " (exclusive, reads too)"
	}
	return s
}

// ruleOf returns the guarded_by rule of an invariant of this kind.
func ruleOf(inv *invariants.Invariant) *Rule { return inv.Rule.(*Rule) }

// The kind concerns its targets' importers too.
var _ core.Importers = (*Rule)(nil)

// Importers implements the driver's question "which packages does the
// invariant concern besides its targets'?": an exported field may be
// read and written by every package that imports its package.
func (r *Rule) Importers(inv *invariants.Invariant) []string {
	if inv.Field != nil && token.IsExported(inv.Field.Member) {
		return []string{inv.Field.Pkg}
	}
	return nil
}
