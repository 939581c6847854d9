package prove

import (
	"errors"
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// loaded is the packages that hold the targets of the run's invariants.
type loaded map[string]*mutate.Package

// of returns the loaded packages an invariant's targets live in.
func (l loaded) of(inv *invariants.Invariant) []*mutate.Package {
	var out []*mutate.Package
	for _, path := range mutate.Packages(inv) {
		if p := l[path]; p != nil {
			out = append(out, p)
		}
	}
	return out
}

// listing is what go list matched in one Go module of the run.
type listing struct {
	unit   driver.Unit
	listed []*packages.Package
}

// list lists the packages of the patterns, with their dependencies, in
// each Go module the invariants' packages live in (guardlint runs in any
// directory; see driver.Units), and reads the invariants' names against
// them as driver.Run does, before anything reads the names.
func list(set *invariants.Set, opts Options) ([]listing, error) {
	var out []listing
	var known []string
	units, err := driver.Units(set, opts.Dir, opts.Patterns)
	if err != nil {
		return nil, err
	}
	for _, u := range units {
		listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Dir: u.Module.Dir, BuildFlags: opts.BuildFlags}, u.Patterns...)
		if err != nil {
			return nil, fmt.Errorf("listing packages: %w", err)
		}
		packages.Visit(listed, nil, func(p *packages.Package) { known = append(known, p.PkgPath) })
		out = append(out, listing{unit: u, listed: listed})
	}
	return out, set.Resolve(known)
}

// load loads, with syntax and types, the listed packages that hold
// targets of Go invariants, once for all mutants, module by module. The
// live-code analyzer runs over them so that generators mutate only calls
// that run.
func load(set *invariants.Set, lists []listing, opts Options) (loaded, error) {
	out := loaded{}
	for _, l := range lists {
		if err := loadUnit(set, l, opts, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadUnit loads the target packages of one module into out.
func loadUnit(set *invariants.Set, l listing, opts Options, out loaded) error {
	inScope := map[string]bool{}
	for _, p := range l.listed {
		inScope[p.PkgPath] = true
	}
	want := map[string]bool{}
	var paths []string
	for _, inv := range set.Invariants {
		if inv.Lang != invariants.LangGo {
			continue
		}
		for _, p := range mutate.Packages(inv) {
			if inScope[p] && !want[p] {
				want[p] = true
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir: l.unit.Module.Dir, BuildFlags: opts.BuildFlags,
	}, paths...)
	if err != nil {
		return fmt.Errorf("loading packages: %w", err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return errors.New("guardlint proves only code that type-checks:\n" + strings.Join(errs, "\n"))
	}
	// The live code the generators mutate is the analyzers' own, with the
	// runners the invariants declare.
	lives, err := driver.Live(set, pkgs)
	if err != nil {
		return err
	}
	for _, pkg := range pkgs {
		li := lives[pkg.ID]
		if li == nil {
			continue
		}
		p, err := mutate.NewPackage(pkg, li)
		if err != nil {
			return err
		}
		out[pkg.PkgPath] = p
	}
	return nil
}

// mutants generates the mutants of a Go invariant in every loaded package
// its targets live in, with the generators of its kind (mutate.Rule).
func (l loaded) mutants(inv *invariants.Invariant) ([]*mutant.Mutant, []string) {
	gen, ok := inv.Rule.(mutate.Rule)
	if !ok {
		return nil, nil
	}
	var ms []*mutant.Mutant
	var vacuous []string
	for _, p := range l.of(inv) {
		ms = append(ms, gen.Mutants(p, inv)...)
		vacuous = append(vacuous, gen.Vacuity(p, inv)...)
	}
	return ms, vacuous
}
