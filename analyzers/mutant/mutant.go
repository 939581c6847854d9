// Package mutant is the vocabulary of guardlint prove that every language
// shares: a mutant (one revert of guarded code, held in memory), the site
// where its invariant must fire, and the names of the reverts. The Go
// generators (analyzers/golang/mutate) and those of C, C++, CUDA, Rust and
// Metal (analyzers/treesitter/native) build mutants under these names, so
// that the prover's matrix has the same columns in every language.
package mutant

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Mutant is one revert of the code an invariant guards, held in memory:
// the new content of the files it changes (and of the file it adds).
type Mutant struct {
	Invariant *invariants.Invariant
	// Target is the function the revert happens in, as the declaration
	// reads: (CommandBuffer).reset.
	Target string
	// Op names the revert: "delete", "block-comment", "lock-deleted" ...
	Op string
	// Name is unique within a run and safe as a file name.
	Name string
	// Files is the new content of every changed or added file, by
	// absolute path.
	Files map[string][]byte
	// Site is where the mutated invariant must fire for the mutant to be
	// killed.
	Site Site
	// Void says why the mutant could not be built or does not compile;
	// a void mutant is never a kill.
	Void string
	// Package is the Go package the mutant changes, which the prover
	// type-checks it in (a *mutate.Package); nil for a mutant of C, C++,
	// CUDA, Rust or Metal code, which names files.
	Package Package
}

// Package is a loaded Go package, as the Go generators hold one.
type Package interface {
	// Path is the package's import path.
	Path() string
}

// Site is the region where a finding kills a mutant: the line range of
// the mutated function's declaration in the mutated file, from its func
// keyword to its closing brace. Every analyzer reports a revert inside the
// function it happened in (at the dead copy of a call, at the first
// statement that runs without the lock, at the write, or at the function's
// name when a required call is gone), so a finding elsewhere (another
// function, the invariants file) is not this mutant's kill.
type Site struct {
	File       string
	Func       string
	Start, End int
	// Callee, when set, is the mutated function as findings name it
	// ((*rpc.Client).send): a finding of the mutated invariant outside
	// the site kills the mutant too when it names this function, for a
	// rule that passes what a function needs to its callers and reports
	// it where no caller can make up for it (guarded_by). The invariant
	// held before the revert (the prover mutates only those), so such a
	// finding is the revert's own.
	Callee string
}

// Contains reports whether a position lies in the site.
func (s Site) Contains(p token.Position) bool {
	return p.Filename == s.File && s.Start <= p.Line && p.Line <= s.End
}

// NamedBy reports whether a finding's message names the site's Callee
// as a whole name (not as the start of a longer one: (*T).send in
// (*T).sendAll): a finding outside the site that is the revert's own.
func (s Site) NamedBy(msg string) bool {
	if s.Callee == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(msg[i:], s.Callee)
		if j < 0 {
			return false
		}
		end := i + j + len(s.Callee)
		if end == len(msg) || !isIdentByte(msg[end]) {
			return true
		}
		i = end
	}
}

// isIdentByte reports whether b can continue a Go or C++ identifier.
func isIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}

// String formats the site as file:start-end (func).
func (s Site) String() string {
	return fmt.Sprintf("%s:%d-%d (%s)", s.File, s.Start, s.End, s.Func)
}

// unsafeName matches what may not appear in a mutant's name.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// MutantName names the mutant op of a target: id.target.op, with what
// may not appear in a file name replaced, so that -show and --test can
// use it as one.
func MutantName(inv *invariants.Invariant, target, op string) string {
	return unsafeName.ReplaceAllString(inv.ID+"."+target+"."+op, "_")
}

// VoidMutant is a mutant that could not be built, for a target that is
// not a function declaration (a field).
func VoidMutant(inv *invariants.Invariant, target, op, why string) *Mutant {
	return &Mutant{Invariant: inv, Target: target, Op: op, Name: unsafeName.ReplaceAllString(inv.ID+"."+op, "_"), Void: why}
}
