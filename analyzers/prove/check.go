package prove

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// errVoid marks a mutant that does not parse or type-check.
var errVoid = errors.New("void")

// isVoid reports whether err says that a mutant is void.
func isVoid(err error) bool { return errors.Is(err, errVoid) }

// voidReason is a void error's message without its marker, on one line.
func voidReason(err error) string {
	return oneLine(strings.TrimPrefix(err.Error(), errVoid.Error()+": "))
}

// oneLine joins the lines of a void reason with "; ": a type error has
// lines of its own ("too many return values\n\thave (error)\n\twant ()")
// and a load lists its errors one a line, which the report would print as
// stray lines of their own.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// findings checks a mutant the fast way: only the mutated package is
// parsed again (only the files the mutant changes or adds) and
// type-checked against the dependencies' types from the first load, and
// the suite runs over it. This is what driver.Run does with an overlay,
// minus listing, loading and type-checking everything else again, which
// the mutant cannot change: mutants only rewrite function bodies and add
// unexported declarations, so importers of the package see the same API.
func findings(suite *driver.Suite, p *mutate.Package, m *mutant.Mutant) ([]core.Finding, error) {
	files := make([]*ast.File, 0, len(p.Pkg.Syntax)+1)
	names := make([]string, 0, len(p.Pkg.Syntax)+1)
	known := map[string]bool{}
	parse := func(name string, data []byte) error {
		f, err := parser.ParseFile(p.Fset, name, data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%w: does not parse: %w", errVoid, err)
		}
		files, names = append(files, f), append(names, name)
		return nil
	}
	for _, f := range p.Pkg.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		known[name] = true
		if data, ok := m.Files[name]; ok {
			if err := parse(name, data); err != nil {
				return nil, err
			}
			continue
		}
		files, names = append(files, f), append(names, name)
	}
	added := make([]string, 0, len(m.Files))
	for name := range m.Files {
		if !known[name] {
			added = append(added, name)
		}
	}
	sort.Strings(added)
	for _, name := range added {
		if filepath.Dir(name) != p.Dir {
			return nil, fmt.Errorf("%w: %s is outside the package directory", errVoid, name)
		}
		if err := parse(name, m.Files[name]); err != nil {
			return nil, err
		}
	}
	tpkg, info, err := typeCheck(p, files)
	if err != nil {
		return nil, err
	}
	mutated := &packages.Package{
		ID:              p.Pkg.ID,
		Name:            p.Pkg.Name,
		PkgPath:         p.Pkg.PkgPath,
		GoFiles:         names,
		CompiledGoFiles: names,
		Fset:            p.Fset,
		Syntax:          files,
		Types:           tpkg,
		TypesInfo:       info,
		TypesSizes:      p.Pkg.TypesSizes,
		Module:          p.Pkg.Module,
		Imports:         p.Pkg.Imports,
	}
	return suite.Analyze(mutated)
}

// typeCheck type-checks the files of a mutated package, importing the
// dependencies the first load type-checked. A type error makes the mutant
// void.
func typeCheck(p *mutate.Package, files []*ast.File) (*types.Package, *types.Info, error) {
	var errs []error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if imp := p.Pkg.Imports[path]; imp != nil && imp.Types != nil {
				return imp.Types, nil
			}
			return nil, fmt.Errorf("package %s is not imported by %s", path, p.Pkg.PkgPath)
		}),
		Sizes: p.Pkg.TypesSizes,
		Error: func(err error) { errs = append(errs, err) },
	}
	if p.Pkg.Module != nil && p.Pkg.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Pkg.Module.GoVersion
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	tpkg, _ := conf.Check(p.Pkg.PkgPath, p.Fset, files, info)
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%w: does not compile: %w", errVoid, errs[0])
	}
	return tpkg, info, nil
}

// importerFunc adapts a function to types.Importer.
type importerFunc func(path string) (*types.Package, error)

// Import implements types.Importer.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// exactFindings checks a mutant through driver.Run with the mutant as an
// overlay: everything is listed, loaded and type-checked again, as the
// command itself would on the mutated tree. It is the reference the fast
// path is tested against, about a second per mutant.
func exactFindings(set *invariants.Set, m *mutant.Mutant, opts Options) ([]core.Finding, error) {
	res, err := driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, Overlay: m.Files, BuildFlags: opts.BuildFlags})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errVoid, err)
	}
	return res.Findings, nil
}

// verdict decides a mutant from the findings on it: killed when the
// mutated invariant itself fires inside the site.
func verdict(m *mutant.Mutant, fs []core.Finding) (Verdict, string) {
	var elsewhere []string
	for _, f := range fs {
		if f.ID != m.Invariant.ID {
			continue
		}
		if m.Site.Contains(f.Pos) {
			return Killed, fmt.Sprintf("%s:%d:%d", filepath.Base(f.Pos.Filename), f.Pos.Line, f.Pos.Column)
		}
		if m.Site.NamedBy(f.Message) {
			return Killed, fmt.Sprintf("%s:%d:%d, at a caller of %s", filepath.Base(f.Pos.Filename), f.Pos.Line, f.Pos.Column, m.Site.Callee)
		}
		elsewhere = append(elsewhere, fmt.Sprintf("%s:%d", filepath.Base(f.Pos.Filename), f.Pos.Line))
	}
	if len(elsewhere) > 0 {
		return Survived, fmt.Sprintf("%s fired only outside %s, at %v", m.Invariant.ID, m.Site.Func, elsewhere)
	}
	return Survived, m.Invariant.ID + " did not fire"
}
