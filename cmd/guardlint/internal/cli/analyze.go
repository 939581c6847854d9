package cli

import (
	"errors"
	"fmt"
	"go/token"
	"sort"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/suite"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// finding is one line of output.
type finding struct {
	pos     token.Position
	id      string // invariant id, or "" for driver errors
	message string
}

func (f finding) format(dir string) string {
	if f.pos.Filename == "" {
		return "guardlint: " + f.message
	}
	return fmt.Sprintf("%s:%d:%d: %s", relPath(dir, f.pos.Filename), f.pos.Line, f.pos.Column, f.message)
}

type result struct {
	findings []finding
}

// analyze loads the packages that the invariants concern and runs the
// suite over them.
//
// Loading is in two steps. The first lists the packages that the patterns
// match, with their import graph, which is cheap (go list). The second
// parses and type-checks only the packages an invariant can concern: the
// packages of its targets and, for an exported owned field, every listed
// package that depends on the field's package. A package no invariant
// concerns has nothing to check, and skipping it is what makes guardlint
// cheap on large trees.
func analyze(set *invariants.Set, opts *options) (*result, error) {
	start := time.Now()
	phase := func(name string, n int) {
		if opts.verbose != nil {
			fmt.Fprintf(opts.verbose, "guardlint: %-8s %4d packages %6.0fms\n", name, n, float64(time.Since(start).Microseconds())/1000)
			start = time.Now()
		}
	}
	listed, err := packages.Load(&packages.Config{
		Mode:  packages.NeedName | packages.NeedImports | packages.NeedDeps,
		Dir:   opts.dir,
		Tests: opts.tests,
	}, opts.patterns...)
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
	res := &result{}
	res.findings = append(res.findings, scopeFindings(set, inScope, opts)...)

	phase("scope", len(inScope))
	wanted := relevant(set, listed)
	if len(wanted) == 0 {
		return res, nil
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir:   opts.dir,
		Tests: opts.tests,
	}, wanted...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, fmt.Errorf("guardlint checks only code that type-checks:\n%w", err)
	}
	phase("load", len(pkgs))
	graph, err := checker.Analyze(suite.New(guardconf.Static(set)), pkgs, nil)
	if err != nil {
		return nil, err
	}
	phase("analyze", len(pkgs))
	seen := map[string]bool{}
	for act := range graph.All() {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %w", act, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			f := finding{pos: act.Package.Fset.Position(d.Pos), id: d.Category, message: d.Message}
			key := f.format("")
			if !seen[key] {
				seen[key] = true
				res.findings = append(res.findings, f)
			}
		}
	}
	sort.SliceStable(res.findings, func(i, j int) bool {
		a, b := res.findings[i].pos, res.findings[j].pos
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

// relevant lists the packages an invariant can concern.
func relevant(set *invariants.Set, listed []*packages.Package) []string {
	want := map[string]bool{}
	exportedFields := map[string]bool{} // package path of exported owned fields
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			want[p] = true
		}
		if inv.Field != nil && token.IsExported(inv.Field.Member) {
			exportedFields[inv.Field.Pkg] = true
		}
	}
	var out []string
	memo := map[*packages.Package]bool{}
	var dependsOnField func(p *packages.Package) bool
	dependsOnField = func(p *packages.Package) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		memo[p] = false
		for path, imp := range p.Imports {
			if exportedFields[path] || dependsOnField(imp) {
				memo[p] = true
				break
			}
		}
		return memo[p]
	}
	for _, p := range listed {
		if want[p.PkgPath] || (len(exportedFields) > 0 && dependsOnField(p)) {
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
func scopeFindings(set *invariants.Set, inScope map[string]bool, opts *options) []finding {
	var out []finding
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
		pkgs, _ := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: opts.dir}, unknown...)
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
					out = append(out, finding{
						pos:     token.Position{Filename: inv.Pos.File, Line: inv.Pos.Line, Column: inv.Pos.Col},
						id:      inv.ID,
						message: fmt.Sprintf("invariant %s: cannot verify: package %s not found", inv.ID, p),
					})
				}
			}
		}
		if !touched && len(f.Invariants) > 0 {
			out = append(out, finding{
				pos:     token.Position{Filename: f.Path, Line: 1, Column: 1},
				message: fmt.Sprintf("cannot verify: no package that %s names was loaded by %s", relPath(opts.dir, f.Path), strings.Join(opts.patterns, " ")),
			})
		}
	}
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
