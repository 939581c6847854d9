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
// CUDA, Rust and Metal are checked over tree-sitter syntax trees by the
// front end in analyzers/treesitter.
const (
	LangGo   Lang = "go"
	LangC    Lang = "c"
	LangCPP  Lang = "cpp"
	LangCUDA Lang = "cuda"
	LangRust Lang = "rust"
	// LangMetal is the Metal Shading Language: C++ with address-space and
	// function qualifiers, read by the C++ grammar once they are blanked.
	LangMetal Lang = "metal"
)

// Langs lists the accepted languages in the order the docs present them.
var Langs = []Lang{LangGo, LangC, LangCPP, LangCUDA, LangRust, LangMetal}

// TreeSitter reports whether the language is checked by the tree-sitter
// front end rather than through go/types.
func (l Lang) TreeSitter() bool {
	return l == LangC || l == LangCPP || l == LangCUDA || l == LangRust || l == LangMetal
}

// Kind is the rule kind of an invariant: the key of its rule in the
// invariants file. The kinds are declared by their packages and listed
// by the registry (analyzers/registry); the loader knows them through
// their KindSpec.
type Kind string

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

// Runners returns the Go runners every Go invariant of the set declares,
// once each (see Invariant.Runs). The runners of the tree-sitter
// languages are the invariant's own: their calls are matched in its
// files, by name.
func (s *Set) Runners() []Name {
	var out []Name
	seen := map[string]bool{}
	for _, inv := range s.Invariants {
		if inv.Lang.TreeSitter() {
			continue
		}
		for _, n := range inv.Runs {
			if k := n.String(); !seen[k] {
				seen[k] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// Set is the invariants of one run, loaded from one or more files.
type Set struct {
	Files []*File
	// Invariants are the invariants a run checks.
	Invariants []*Invariant
	// Unchecked are the invariants loaded but not checked: disabled in
	// their file (`enabled: false`) or left out by Select (-only,
	// -skip). They are still validated, and a suppression may name them.
	Unchecked []*Invariant

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
	// Patches is the file's patch chain, or nil.
	Patches *Patches
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
	// Severity is how much a finding weighs (`severity:`, error when
	// absent).
	Severity Severity
	// Disabled is `enabled: false`: the invariant is loaded and
	// validated, then set aside (Set.Unchecked), so a guard can be
	// switched off without deleting what it says.
	Disabled bool
	// Package is the default package for unqualified names, resolved.
	Package string

	// Targets: Functions for the kinds that target functions, Field for
	// those that target a field (KindSpec.Field).
	Functions []Name
	Field     *Name

	// Files are the globs that C, C++, CUDA and Rust targets are looked up
	// in, relative to the directory of the invariants file unless absolute;
	// `**` matches any number of directories. Empty for Go.
	Files []Glob
	// IncludeIgnored reads the files git ignores too (`include_ignored:
	// true`); by default a glob with wildcards leaves them out.
	IncludeIgnored bool
	// All accepts several functions matching one name (every match is
	// checked); without it more than one match cannot be verified.
	All bool
	// Defines are the preprocessor macros (C, C++, CUDA) or cfg options
	// (Rust) in effect; code they disable is not live.
	Defines []Define
	// Erase are the macros (C family, Metal) blanked before parsing, with
	// their parenthesised arguments when they take some: declaration
	// specifiers, attributes and pragmas that the grammar cannot read
	// without their expansion (`_GLIBCXX20_CONSTEXPR`,
	// `STEEL_PRAGMA_UNROLL`).
	Erase []string

	// Rule is what must hold at the targets; its type belongs to the
	// rule kind's package.
	Rule Rule
	// Runs are the runners the file and the invariant declare:
	// functions that call the function values they are passed before
	// they return, so that a literal passed to one runs where it is
	// written. Go names for Go; for the tree-sitter languages, scoped
	// names (`std::call_once`, `objc::rc::autoreleasepool`) whose calls
	// are matched by name like a requires operation.
	Runs []Name
	// Guards are the guard classes (C family) and LockCalls the lock
	// calls the file and the invariant declare beside the built-in ones
	// (`guards:`, `lock_calls:`); empty for Go.
	Guards    []GuardType
	LockCalls LockCalls

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

// Kind returns the kind of the invariant's rule.
func (inv *Invariant) Kind() Kind { return inv.Rule.Kind() }

// Packages returns the import paths an invariant's targets live in (for a
// kind without targets, those its rule names: ScopeRule); none for the
// languages of the tree-sitter front end, which name files.
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
	if r, ok := inv.Rule.(ScopeRule); ok {
		for _, p := range r.Packages() {
			add(p)
		}
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
