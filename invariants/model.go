package invariants

import (
	"fmt"
	"sync"
)

// Version is the only file format version this loader reads.
const Version = 1

// Lang is the language an invariant's target is written in.
type Lang string

// Languages. Go is checked through go/types by the analyzers; C, C++,
// CUDA and Rust are checked over tree-sitter syntax trees by the front end
// in analyzers/treesitter.
const (
	LangGo   Lang = "go"
	LangC    Lang = "c"
	LangCPP  Lang = "cpp"
	LangCUDA Lang = "cuda"
	LangRust Lang = "rust"
)

// Langs lists the accepted languages in the order the docs present them.
var Langs = []Lang{LangGo, LangC, LangCPP, LangCUDA, LangRust}

// TreeSitter reports whether the language is checked by the tree-sitter
// front end rather than through go/types.
func (l Lang) TreeSitter() bool {
	return l == LangC || l == LangCPP || l == LangCUDA || l == LangRust
}

// TreeSitterKinds are the rule kinds the tree-sitter front end checks:
// every kind but requires, which follows calls across functions and
// packages through types. The loader rejects any other for those languages
// rather than skip it.
var TreeSitterKinds = []Kind{KindCall, KindHold, KindOwns, KindForbid, KindOrder}

// Kind is the rule kind of an invariant.
type Kind string

// The rule kinds. Exactly one is set per invariant.
const (
	KindCall   Kind = "call"
	KindHold   Kind = "hold"
	KindOwns   Kind = "owns"
	KindForbid Kind = "forbid"
	KindOrder  Kind = "order"
	// KindRequires: every call of the target functions happens with a lock
	// held, followed through callers across packages.
	KindRequires Kind = "requires"
)

// Kinds lists the rule kinds in the order the docs present them.
var Kinds = []Kind{KindCall, KindHold, KindOwns, KindForbid, KindOrder, KindRequires}

// LockMode says whether a lock must be held exclusively (Lock) or shared
// (RLock).
type LockMode string

// Lock modes.
const (
	Exclusive LockMode = "exclusive"
	Shared    LockMode = "shared"
)

// Pos is a position in an invariants file; Line and Col are 1-based.
type Pos struct {
	File      string
	Line, Col int
}

// String formats the position as file:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Set is the invariants of one run, loaded from one or more files.
type Set struct {
	Files      []*File
	Invariants []*Invariant

	// resolve records the one Resolve call that fixes the names' readings.
	resolve struct {
		sync.Mutex
		done bool
		err  error
	}
}

// File is one invariants file.
type File struct {
	Path       string
	Version    int
	Module     string // module path of the go.mod above the file, if any
	Package    string // default package for unqualified names, resolved
	Invariants []*Invariant
	// Content is the file's bytes, kept so that drivers can map positions.
	Content []byte
}

// Invariant is one declared invariant: a target and the rule that must hold
// there.
type Invariant struct {
	ID   string
	Why  string
	Ref  string
	Lang Lang
	// Package is the default package for unqualified names, resolved.
	Package string

	// Targets. Functions is set for call, hold, forbid, order and requires
	// (for requires, the functions whose every call needs the lock); Field
	// for owns.
	Functions []Name
	Field     *Name

	// Files are the globs that C, C++, CUDA and Rust targets are looked up
	// in, relative to the directory of the invariants file unless absolute;
	// `**` matches any number of directories. Empty for Go.
	Files []Glob
	// All accepts several functions matching one name (every match is
	// checked); without it more than one match cannot be verified.
	All bool
	// Defines are the preprocessor macros (C, C++, CUDA) or cfg options
	// (Rust) in effect; code they disable is not live.
	Defines []Define

	Kind     Kind
	Call     *CallRule
	Hold     *HoldRule
	Owns     *OwnsRule
	Forbid   *ForbidRule
	Order    *OrderRule
	Requires *RequiresRule

	// Pos is the position of the invariant's mapping (its first key).
	Pos  Pos
	File *File
}

// Glob is one file pattern of a `files` target.
type Glob struct {
	Pattern string
	Pos     Pos
}

// Define is one entry of `defines`: a macro and its value for the C
// family (`DEBUG: 1`; an empty value defines the macro as 1), or a cfg
// option for Rust (`test: true` sets the name `test`, `feature: [a, b]`
// sets `feature = "a"` and `feature = "b"`).
type Define struct {
	Name string
	// Values holds the value, or every value of a list.
	Values []string
	Pos    Pos
}

// CallRule: the target contains a live call to To.
type CallRule struct {
	To Name
	// EveryPath requires the call on every path from entry to every return.
	EveryPath bool
	// Via lists helpers whose call counts as a call to To. Each helper must
	// itself contain a live call to To on every path, or the invariant is
	// reported as unverifiable.
	Via []Name
}

// HoldRule: Lock is held, in Mode, from before the first statement that
// does work to every return.
type HoldRule struct {
	Lock Name
	Mode LockMode
	// Via lists helpers whose call acquires Lock. Each helper must itself
	// acquire the lock on every path and not release it.
	Via []Name
}

// OwnsRule: the target field is written only inside Writers.
type OwnsRule struct {
	Writers []Name
}

// ForbidRule: the target contains no live call to Call.
type ForbidRule struct {
	Call Name
}

// OrderRule: every live call to Then is preceded, on every path from the
// function's entry, by a call to First.
type OrderRule struct {
	First, Then Name
}

// RequiresRule: every call of the target functions happens with Lock held
// in Mode. A function that calls one of them without holding the lock
// requires it in turn, and so on through its callers, across packages; an
// entry point (exported, reached through an interface, a literal passed
// elsewhere, a goroutine) that requires the lock is a finding.
type RequiresRule struct {
	Lock Name
	Mode LockMode
	// Acquire lists helpers whose call takes Lock (in Mode); Release lists
	// helpers whose call gives it up.
	Acquire, Release []Name
}

// Packages returns the import paths an invariant's targets live in; none
// for the languages of the tree-sitter front end, which name files.
func (inv *Invariant) Packages() []string {
	if inv.Lang.TreeSitter() {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range inv.Functions {
		add(f.Pkg)
	}
	if inv.Field != nil {
		add(inv.Field.Pkg)
	}
	return out
}

// Error is a configuration error at a position in an invariants file.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every configuration error found, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	s := l[0].Error()
	for _, e := range l[1:] {
		s += "\n" + e.Error()
	}
	return s
}

// err returns the list as an error, or nil when it is empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
