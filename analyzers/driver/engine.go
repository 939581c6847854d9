package driver

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/internal/stdfacts"

	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Options say what to analyse.
type Options struct {
	// Dir is the directory patterns are relative to (the module's, or
	// one inside it).
	Dir string
	// Patterns are go list patterns; empty means ./...
	Patterns []string
	// Tests includes test files.
	Tests bool
	// Overlay replaces the contents of files by absolute path, as
	// go/packages overlays do, without touching the disk.
	Overlay map[string][]byte
	// Verbose receives phase timings, when set.
	Verbose io.Writer
	// ParseBudget bounds each tree-sitter parse (treesitter.Options);
	// 0 means the default.
	ParseBudget time.Duration
}

// Result is what a run found.
type Result struct {
	Findings []core.Finding
}

// Run loads the packages that the invariants concern and runs the
// suite over them.
//
// Loading is in two steps. The first lists the packages that the patterns
// match, with their import graph, which is cheap (go list). The second
// parses and type-checks only the packages an invariant can concern: the
// packages of its targets and, for an exported owned field, every listed
// package that depends on the field's package. A package no invariant
// concerns has nothing to check, and skipping it is what makes guardlint
// cheap on large trees.
func Run(set *invariants.Set, opts Options) (*Result, error) {
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"./..."}
	}
	start := time.Now()
	phase := func(name string, n int) {
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "guardlint: %-8s %4d packages %6.0fms\n", name, n, float64(time.Since(start).Microseconds())/1000)
			start = time.Now()
		}
	}
	listed, err := packages.Load(&packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:     opts.Dir,
		Tests:   opts.Tests,
		Overlay: opts.Overlay,
	}, opts.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("listing packages: %w", err)
	}
	if err := packageErrors(listed); err != nil {
		return nil, fmt.Errorf("listing packages: %w", err)
	}
	phase("list", len(listed))
	// Names whose path has a dot in its last element are read against
	// the listed packages and their dependencies.
	var known []string
	packages.Visit(listed, nil, func(p *packages.Package) { known = append(known, p.PkgPath) })
	if err := set.Resolve(known); err != nil {
		return nil, err
	}
	inScope := map[string]bool{}
	for _, p := range listed {
		inScope[p.PkgPath] = true
	}
	res := &Result{}
	res.Findings = append(res.Findings, scopeFindings(set, inScope, opts)...)
	phase("scope", len(inScope))
	// The C, C++, CUDA and Rust invariants name files, not packages: the
	// tree-sitter front end checks them in the same run.
	res.Findings = append(res.Findings, Native(set, opts.ParseBudget)...)
	phase("tree-sitter", 0)
	if wanted := relevant(set, listed); len(wanted) > 0 {
		if err := checkNesting(listed, wanted); err != nil {
			return nil, err
		}
		found, err := analyzePackages(set, wanted, opts)
		if err != nil {
			return nil, err
		}
		res.Findings = append(res.Findings, found...)
		phase("analyze", len(wanted))
	}
	core.Sort(res.Findings)
	return res, nil
}

// analyzePackages loads the named packages with syntax and types and runs
// the suite over them.
func analyzePackages(set *invariants.Set, wanted []string, opts Options) ([]core.Finding, error) {
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir:     opts.Dir,
		Tests:   opts.Tests,
		Overlay: opts.Overlay,
	}, wanted...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, fmt.Errorf("guardlint checks only code that type-checks:\n%w", err)
	}
	return Analyze(set, pkgs...)
}

// importers is implemented by the rules of kinds that concern more than
// their targets' packages: every package that imports one of the packages
// Importers names (it may write an exported owned field, or call an
// operation that needs a lock).
type importers interface {
	Importers(inv *invariants.Invariant) []string
}

// relevant lists the packages an invariant can concern: the packages of
// its targets and, for a rule that implements importers, every listed
// package that depends on the packages it names.
func relevant(set *invariants.Set, listed []*packages.Package) []string {
	want := map[string]bool{}
	reach := map[string]bool{} // packages whose importers are concerned too
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			want[p] = true
		}
		if r, ok := inv.Rule.(importers); ok && inv.Lang == invariants.LangGo {
			for _, p := range r.Importers(inv) {
				reach[p] = true
			}
		}
	}
	var out []string
	memo := map[*packages.Package]bool{}
	var dependsOn func(p *packages.Package) bool
	dependsOn = func(p *packages.Package) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		memo[p] = false
		for path, imp := range p.Imports {
			if reach[path] || dependsOn(imp) {
				memo[p] = true
				break
			}
		}
		return memo[p]
	}
	in := map[string]bool{}
	for _, p := range listed {
		if want[p.PkgPath] || reach[p.PkgPath] || (len(reach) > 0 && dependsOn(p)) {
			in[p.PkgPath] = true
		}
	}
	// The packages of the main module that the concerned ones import are
	// loaded from source too, so that their facts (a helper that never
	// returns, an operation that needs a lock) reach their importers. They
	// are few; the standard library and other modules stay export data.
	var local func(p *packages.Package)
	seen := map[*packages.Package]bool{}
	local = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if seen[imp] || imp.Module == nil || !imp.Module.Main {
				continue
			}
			seen[imp] = true
			in[imp.PkgPath] = true
			local(imp)
		}
	}
	for _, p := range listed {
		if in[p.PkgPath] {
			local(p)
		}
	}
	for p := range in {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// packageErrors collects the errors of packages and their dependencies,
// one per line.
func packageErrors(pkgs []*packages.Package) error {
	var lines []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if s := e.Error(); !seen[s] {
				seen[s] = true
				lines = append(lines, s)
			}
		}
	})
	if len(lines) == 0 {
		return nil
	}
	return errors.New(strings.Join(lines, "\n"))
}

// Analyze runs the analyzer suite over loaded, type-checked packages and
// returns the findings of the root packages, once each (a package and its
// test variant report a shared finding twice).
func Analyze(set *invariants.Set, pkgs ...*packages.Package) ([]core.Finding, error) {
	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	graph, err := checker.Analyze(registry.Analyzers(guardconf.Static(set)), Graph(pkgs), nil)
	if err != nil {
		return nil, err
	}
	var out []core.Finding
	seen := map[string]bool{}
	for act := range graph.All() {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %w", act, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			f := core.Finding{
				Pos:       act.Package.Fset.Position(d.Pos),
				End:       act.Package.Fset.Position(d.End),
				ID:        d.Category,
				Invariant: byID[d.Category],
				Message:   d.Message,
			}
			if key := f.Format(""); !seen[key] {
				seen[key] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// Graph returns the packages to hand x/tools' checker: copies of the
// loaded packages whose imports keep only packages of the list, plus, for
// an import of the standard library loaded from export data, the stub
// that carries its ctrlflow facts (see package stdfacts).
//
// An analyzer with facts (ctrlflow, requires) runs on the imports of each
// package it analyses, transitively, and needs their syntax. The packages
// left out were loaded from export data, without syntax: those of the
// standard library give their NoReturn facts through their stubs; the
// others are exactly those that cannot reach an invariant's package, so
// they have no requires facts to give. Without the restriction every
// dependency down to the standard library would be type-checked and
// analysed from source, for facts that do not change.
func Graph(pkgs []*packages.Package) []*packages.Package {
	byID := map[string]*packages.Package{}
	out := make([]*packages.Package, len(pkgs))
	for i, p := range pkgs {
		cp := *p
		out[i] = &cp
		byID[p.ID] = &cp
	}
	stubs := map[string]*packages.Package{}
	for _, p := range out {
		imports := map[string]*packages.Package{}
		for path, imp := range p.Imports {
			if cp := byID[imp.ID]; cp != nil {
				imports[path] = cp
				continue
			}
			st, seen := stubs[imp.ID]
			if !seen {
				st = stdfacts.Stub(imp, p.TypesSizes, p.Fset)
				stubs[imp.ID] = st
			}
			if st != nil {
				imports[path] = st
			}
		}
		p.Imports = imports
	}
	return out
}
