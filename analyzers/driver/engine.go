package driver

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/stdfacts"
	"github.com/guardlint/guardlint/analyzers/overlay"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Options say what to analyse.
type Options struct {
	// Dir is the directory patterns are relative to: any directory, in a
	// Go module or not.
	Dir string
	// Patterns are go list patterns; empty means ./...
	Patterns []string
	// Tests includes test files.
	Tests bool
	// BuildFlags are passed to the go command that lists and loads the
	// packages, such as -tags=integration.
	BuildFlags []string
	// Overlay replaces the contents of files by absolute path, as
	// go/packages overlays do, without touching the disk.
	Overlay map[string][]byte
	// Files, when set, is a view of the sources (a revert, a patched
	// tree) that both front ends read instead of the disk: its Go files
	// join Overlay, and the tree-sitter front end reads and walks
	// through it.
	Files *overlay.Files
	// Verbose receives phase timings, when set.
	Verbose io.Writer
	// ParseBudget bounds each tree-sitter parse (nativecheck.Options);
	// 0 means the default.
	ParseBudget time.Duration
	// Cache is the directory of the result cache (cache.go), or "" for
	// none. A run on a view of the sources or with patch chains is never
	// cached.
	Cache string
}

// Result is what a run found.
type Result struct {
	Findings []core.Finding
	// Checked counts the invariants the run checked: every C, C++, CUDA
	// and Rust invariant, and each Go invariant that a package of the
	// run's patterns concerns.
	Checked int
	// NotChecked are the Go invariants whose packages exist but lie
	// outside the run's patterns (a partial run such as ./app/...).
	NotChecked []*invariants.Invariant
	// Notes say which copy of a module was checked where the repository
	// keeps another with the same module path (see build.go).
	Notes []string
	// Cached says that the result was replayed from the cache.
	Cached bool
}

// unitList is one unit of a run with the packages go list matched there.
type unitList struct {
	unit   Unit
	listed []*packages.Package
}

// Run loads the packages that the invariants concern and runs the
// suite over them.
//
// Loading is in two steps, in each module the invariants' packages live in
// (modules.go). The first lists the packages that the patterns match,
// with their import graph, which is cheap (go list). The second parses and
// type-checks only the packages an invariant can concern: the packages of
// its targets and, for an exported owned field or a requires invariant,
// every listed package that depends on them. A package no invariant
// concerns has nothing to check, and skipping it is what makes guardlint
// cheap on large trees.
func Run(set *invariants.Set, opts Options) (_ *Result, err error) {
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"./..."}
	}
	// Patch chains are applied first: everything after sees the
	// patched tree.
	chains := applyChains(set, opts.Files)
	opts.Files = chains.view
	goOverlay, err := opts.Files.Go(opts.Overlay)
	if err != nil {
		return nil, err
	}
	opts.Overlay = goOverlay
	start := time.Now()
	phase := func(name string, n int) {
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "guardlint: %-8s %4d packages %6.0fms\n", name, n, float64(time.Since(start).Microseconds())/1000)
			start = time.Now()
		}
	}
	ms, err := findModules(set, opts.Dir)
	if err != nil {
		return nil, err
	}
	var lists []unitList
	inScope := map[string]bool{}
	for _, u := range ms.units(opts.Dir, opts.Patterns) {
		listed, err := packages.Load(&packages.Config{
			Mode:       packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
			Dir:        u.Module.Dir,
			Tests:      opts.Tests,
			BuildFlags: opts.BuildFlags,
			Overlay:    opts.Overlay,
		}, u.Patterns...)
		if err != nil {
			return nil, fmt.Errorf("listing packages in %s: %w", u.Module.Dir, err)
		}
		if err := packageErrors(listed); err != nil {
			return nil, fmt.Errorf("listing packages in %s: %w", u.Module.Dir, err)
		}
		listed = ms.withDeps(u.Module, listed)
		lists = append(lists, unitList{unit: u, listed: listed})
		for _, p := range listed {
			inScope[p.PkgPath] = true
		}
	}
	res := &Result{Notes: append(ms.Notes, ms.taken(opts.Dir, lists)...)}
	phase("list", len(inScope))
	// Names whose path has a dot in its last element are read against
	// the listed packages and their dependencies, in every module.
	var known []string
	for _, l := range lists {
		packages.Visit(l.listed, nil, func(p *packages.Package) { known = append(known, p.PkgPath) })
	}
	if err := set.Resolve(known); err != nil {
		return nil, err
	}
	var key string
	if cacheable(set, opts) {
		if key, err = cacheKey(set, opts, lists); err != nil {
			return nil, err
		}
		if hit := cacheLoad(opts.Cache, key, set); hit != nil {
			phase("cached", len(inScope))
			return hit, nil
		}
		defer func() {
			if err == nil && res != nil {
				cacheStore(opts.Cache, key, res)
			}
		}()
	}
	res.Findings = append(res.Findings, scope(set, ms, lists, inScope, opts, res)...)
	phase("scope", len(inScope))
	// The C, C++, CUDA and Rust invariants name files, not packages: the
	// tree-sitter front end checks them in the same run.
	res.Findings = append(res.Findings, NativeFiles(set, opts.Files, opts.ParseBudget)...)
	phase("tree-sitter", 0)
	for _, l := range lists {
		wanted, report := relevant(set, l.listed)
		if len(wanted) == 0 {
			continue
		}
		if err := checkNesting(l.listed, wanted); err != nil {
			return nil, err
		}
		found, err := analyzePackages(set, wanted, report, l.unit.Module.Dir, opts)
		if err != nil {
			return nil, err
		}
		res.Findings = append(res.Findings, found...)
		phase("analyze", len(wanted))
	}
	chains.annotate(res.Findings)
	res.Findings = append(res.Findings, chains.findings...)
	RelativeMessages(RepoRoot(opts.Dir), res.Findings)
	core.Sort(res.Findings)
	return res, nil
}

// analyzePackages loads the named packages with syntax and types, from
// dir, and runs the suite over them; see analyze for report.
func analyzePackages(set *invariants.Set, wanted []string, report map[string]bool, dir string, opts Options) ([]core.Finding, error) {
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir:        dir,
		Tests:      opts.Tests,
		BuildFlags: opts.BuildFlags,
		Overlay:    opts.Overlay,
	}, wanted...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, fmt.Errorf("guardlint checks only code that type-checks:\n%w", err)
	}
	return NewSuite(set).analyze(report, pkgs...)
}

// reach returns the packages whose importers an invariant concerns too.
func reach(inv *invariants.Invariant) []string {
	if r, ok := inv.Rule.(core.Importers); ok && inv.Lang == invariants.LangGo {
		return r.Importers(inv)
	}
	return nil
}

// relevant lists the packages to load with syntax and types among the
// listed ones and their dependencies: the listed packages an invariant can
// concern (the packages of its targets and, see reach, every listed
// package that depends on the packages it names), which are reported, and
// the packages whose facts they need, which are analysed but not
// reported (see below).
func relevant(set *invariants.Set, listed []*packages.Package) ([]string, map[string]bool) {
	want := map[string]bool{}
	reached := map[string]bool{} // packages whose importers are concerned too
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			want[p] = true
		}
		for _, p := range reach(inv) {
			reached[p] = true
		}
	}
	memo := map[*packages.Package]bool{}
	var dependsOn func(p *packages.Package, on map[string]bool) bool
	dependsOn = func(p *packages.Package, on map[string]bool) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		memo[p] = false
		for path, imp := range p.Imports {
			if on[path] || dependsOn(imp, on) {
				memo[p] = true
				break
			}
		}
		return memo[p]
	}
	report := map[string]bool{}
	for _, p := range listed {
		if want[p.PkgPath] || reached[p.PkgPath] || (len(reached) > 0 && dependsOn(p, reached)) {
			report[p.PkgPath] = true
		}
	}
	// Loaded from source for their facts only, not reported: the packages
	// of the main module that the concerned ones import, so that their
	// facts (a helper that never returns, an operation that needs a lock)
	// reach their importers, also in a partial run (./app/... still
	// follows an operation two packages away). They are few; the standard
	// library and other modules stay export data.
	seen := map[*packages.Package]bool{}
	var local func(p *packages.Package)
	local = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if seen[imp] || imp.Module == nil || !imp.Module.Main {
				continue
			}
			seen[imp] = true
			if _, ok := report[imp.PkgPath]; !ok {
				report[imp.PkgPath] = false
			}
			local(imp)
		}
	}
	for _, p := range listed {
		if report[p.PkgPath] {
			local(p)
		}
	}
	out := make([]string, 0, len(report))
	for p := range report {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, report
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
	return NewSuite(set).Analyze(pkgs...)
}

// Suite is the analyzer suite of one invariant set, built once and run
// over any number of package graphs: guardlint prove runs it once per
// mutant. Building it per run would build every kind's analyzers again,
// and with them the per-configuration entries the live and lock analyses
// keep, which would then outlive the run.
type Suite struct {
	analyzers []*analysis.Analyzer
	byID      map[string]*invariants.Invariant
}

// NewSuite builds the suite of set's invariants.
func NewSuite(set *invariants.Set) *Suite {
	s := &Suite{analyzers: registry.Analyzers(guardconf.Static(set)), byID: map[string]*invariants.Invariant{}}
	for _, inv := range set.Invariants {
		s.byID[inv.ID] = inv
	}
	return s
}

// Analyze is the package-level Analyze with the suite built already. It
// may be called from several goroutines at once: every call has a graph
// of its own, and the analyzers keep no state between passes.
func (s *Suite) Analyze(pkgs ...*packages.Package) ([]core.Finding, error) {
	return s.analyze(nil, pkgs...)
}

// analyze is Analyze, keeping only the findings in Go files of the
// packages that report marks true (every package when report is nil). A
// package loaded only for its facts reports no Go finding, but a finding
// in an invariants file (a renamed target) stays: it is about an
// invariant the run checks.
func (s *Suite) analyze(report map[string]bool, pkgs ...*packages.Package) ([]core.Finding, error) {
	graph, err := checker.Analyze(s.analyzers, Graph(pkgs), nil)
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
				Invariant: s.byID[d.Category],
				Message:   d.Message,
			}
			if report != nil && !report[act.Package.PkgPath] && strings.HasSuffix(f.Pos.Filename, ".go") {
				continue
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
