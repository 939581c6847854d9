package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
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
	// Pkg is the package the mutant changes.
	Pkg *Package
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
}

// Contains reports whether a position lies in the site.
func (s Site) Contains(p token.Position) bool {
	return p.Filename == s.File && s.Start <= p.Line && p.Line <= s.End
}

// String formats the site as file:start-end (func).
func (s Site) String() string {
	return fmt.Sprintf("%s:%d-%d (%s)", s.File, s.Start, s.End, s.Func)
}

// unsafeName matches what may not appear in a mutant's name.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// NewMutant builds a mutant from its edits. host is the function whose
// line range is the site, in the file it is declared in; a mutant whose
// edits cannot be applied, or whose files do not parse, is void.
func NewMutant(inv *invariants.Invariant, p *Package, host *ast.FuncDecl, op string, e *Edits, void string) *Mutant {
	key := KeyOf(host)
	target := key.String()
	m := &Mutant{
		Invariant: inv,
		Target:    target,
		Op:        op,
		Name:      unsafeName.ReplaceAllString(inv.ID+"."+strings.TrimPrefix(key.recv+"."+key.name, ".")+"."+op, "_"),
		Pkg:       p,
	}
	if void != "" {
		m.Void = void
		return m
	}
	files, err := e.Apply()
	if err != nil {
		m.Void = err.Error()
		return m
	}
	m.Files = files
	file := p.Fset.Position(host.Pos()).Filename
	m.Site = Site{File: file, Func: target}
	src, ok := files[file]
	if !ok {
		src = p.Src[file]
	}
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, file, src, parser.SkipObjectResolution)
	if err != nil {
		m.Void = "does not parse: " + err.Error()
		return m
	}
	for name, data := range files {
		if name == file {
			continue
		}
		if _, err := parser.ParseFile(token.NewFileSet(), name, data, parser.SkipObjectResolution); err != nil {
			m.Void = "does not parse: " + err.Error()
			return m
		}
	}
	d := findDecl(f, key)
	if d == nil {
		m.Void = "the mutated file has no " + target
		return m
	}
	m.Site.Start = fs.Position(d.Pos()).Line
	m.Site.End = fs.Position(d.End()).Line
	return m
}

// VoidMutant is a mutant that could not be built, for a target that is
// not a function declaration (a field).
func VoidMutant(inv *invariants.Invariant, target, op, why string) *Mutant {
	return &Mutant{Invariant: inv, Target: target, Op: op, Name: unsafeName.ReplaceAllString(inv.ID+"."+op, "_"), Void: why}
}
