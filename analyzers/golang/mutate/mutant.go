package mutate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// NewMutant builds a mutant from its edits. host is the function whose
// line range is the site, in the file it is declared in; a mutant whose
// edits cannot be applied, or whose files do not parse, is void.
func NewMutant(inv *invariants.Invariant, p *Package, host *ast.FuncDecl, op string, e *Edits, void string) *mutant.Mutant {
	key := KeyOf(host)
	target := key.String()
	m := &mutant.Mutant{
		Invariant: inv,
		Target:    target,
		Op:        op,
		Name:      mutant.MutantName(inv, strings.TrimPrefix(key.recv+"."+key.name, "."), op),
		Package:   p,
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
	m.Site = mutant.Site{File: file, Func: target}
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
