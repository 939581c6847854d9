// Package engine runs guardlint over a module: it lists the packages the
// patterns match, loads those an invariant concerns, runs the analyzer
// suite and returns the findings. The command line, the output formats and
// the mutation prover all run it.
package engine

import (
	"errors"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/suite"
	"github.com/guardlint/guardlint/analyzers/treesitter"
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

// Finding is one result of a run.
type Finding struct {
	Pos, End token.Position
	// ID is the invariant id, "suppression" for a wrong or unused
	// suppression, or "" for an error of the run as a whole.
	ID string
	// Invariant is the invariant the finding is about, when there is one.
	Invariant *invariants.Invariant
	Message   string
}

// Format returns the finding as one line, file:line:col: message, with
// the file relative to dir when it lies inside it.
func (f Finding) Format(dir string) string {
	if f.Pos.Filename == "" {
		return "guardlint: " + f.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", RelPath(dir, f.Pos.Filename), f.Pos.Line, f.Pos.Column, f.Message)
}

// Result is what a run found.
type Result struct {
	Findings []Finding
}

// RelPath shortens a path to be relative to dir when it lies inside it.
func RelPath(dir, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
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
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps,
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
	inScope := map[string]bool{}
	for _, p := range listed {
		inScope[p.PkgPath] = true
	}
	res := &Result{}
	res.Findings = append(res.Findings, scopeFindings(set, inScope, opts)...)

	phase("scope", len(inScope))

	// The C, C++, CUDA and Rust invariants name files, not packages: the
	// tree-sitter front end checks them in the same run.
	for _, f := range treesitter.Check(set, treesitter.Options{ParseBudget: opts.ParseBudget}) {
		res.Findings = append(res.Findings, Finding{Pos: f.Pos, End: f.End, ID: f.ID, Invariant: f.Invariant, Message: f.Message})
	}
	phase("tree-sitter", 0)
	wanted := relevant(set, listed)
	if len(wanted) == 0 {
		return res, nil
	}
	if err := checkNesting(listed, wanted); err != nil {
		return nil, err
	}
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
	phase("load", len(pkgs))
	found, err := Analyze(set, pkgs...)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, found...)
	phase("analyze", len(pkgs))
	sort.SliceStable(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i].Pos, res.Findings[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return res, nil
}

// relevant lists the packages an invariant can concern: the packages of
// its targets and, for an exported owned field or a requires invariant,
// every listed package that depends on them (it may write the field, or
// call the operations).
func relevant(set *invariants.Set, listed []*packages.Package) []string {
	want := map[string]bool{}
	reach := map[string]bool{} // packages whose importers are concerned too
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			want[p] = true
		}
		if inv.Field != nil && token.IsExported(inv.Field.Member) {
			reach[inv.Field.Pkg] = true
		}
		if inv.Requires != nil && !inv.Lang.TreeSitter() {
			reach[inv.Requires.Lock.Pkg] = true
			for _, p := range inv.Packages() {
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
	for _, p := range listed {
		if want[p.PkgPath] || reach[p.PkgPath] || (len(reach) > 0 && dependsOn(p)) {
			out = append(out, p.PkgPath)
		}
	}
	sort.Strings(out)
	return out
}

// scopeFindings fails closed on invariants the run cannot reach: an
// invariant whose package does not exist at all, and an invariants file
// none of whose packages was loaded (run on the wrong directory, or every
// package renamed).
func scopeFindings(set *invariants.Set, inScope map[string]bool, opts Options) []Finding {
	var out []Finding
	missing := map[string]bool{}
	var unknown []string
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			if !inScope[p] && !missing[p] {
				missing[p] = true
				unknown = append(unknown, p)
			}
		}
	}
	exists := map[string]bool{}
	if len(unknown) > 0 {
		// Packages outside the patterns are fine when they exist; only a
		// package that is not there at all is an error.
		pkgs, _ := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: opts.Dir}, unknown...)
		for _, p := range pkgs {
			if len(p.Errors) == 0 {
				exists[p.PkgPath] = true
			}
		}
	}
	for _, f := range set.Files {
		touched := false
		for _, inv := range f.Invariants {
			for _, p := range inv.Packages() {
				switch {
				case inScope[p]:
					touched = true
				case !exists[p]:
					pos := token.Position{Filename: inv.Pos.File, Line: inv.Pos.Line, Column: inv.Pos.Col}
					out = append(out, Finding{
						Pos:       pos,
						End:       pos,
						ID:        inv.ID,
						Invariant: inv,
						Message:   fmt.Sprintf("invariant %s: cannot verify: package %s not found", inv.ID, p),
					})
				}
			}
		}
		if !touched && hasGo(f) {
			pos := token.Position{Filename: f.Path, Line: 1, Column: 1}
			out = append(out, Finding{
				Pos:     pos,
				End:     pos,
				Message: fmt.Sprintf("cannot verify: no package that %s names was loaded by %s", RelPath(opts.Dir, f.Path), strings.Join(opts.Patterns, " ")),
			})
		}
	}
	return out
}

// hasGo reports whether a file declares a Go invariant; a file of only
// tree-sitter invariants names no package.
func hasGo(f *invariants.File) bool {
	for _, inv := range f.Invariants {
		if !inv.Lang.TreeSitter() {
			return true
		}
	}
	return false
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
func Analyze(set *invariants.Set, pkgs ...*packages.Package) ([]Finding, error) {
	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	graph, err := checker.Analyze(suite.New(guardconf.Static(set)), withinLoaded(pkgs), nil)
	if err != nil {
		return nil, err
	}
	var out []Finding
	seen := map[string]bool{}
	for act := range graph.All() {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %w", act, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			f := Finding{
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

// withinLoaded returns copies of the packages whose imports keep only
// packages of the list. An analyzer with facts (requires) runs on the
// imports of each package it analyses, transitively; the packages left
// out were loaded from export data, without syntax, and are exactly those
// that cannot reach an invariant's package, so they have no facts to
// give. Without the restriction every dependency down to the standard
// library would be analysed, for nothing.
func withinLoaded(pkgs []*packages.Package) []*packages.Package {
	byID := map[string]*packages.Package{}
	out := make([]*packages.Package, len(pkgs))
	for i, p := range pkgs {
		cp := *p
		out[i] = &cp
		byID[p.ID] = &cp
	}
	for _, p := range out {
		imports := map[string]*packages.Package{}
		for path, imp := range p.Imports {
			if cp := byID[imp.ID]; cp != nil {
				imports[path] = cp
			}
		}
		p.Imports = imports
	}
	return out
}
