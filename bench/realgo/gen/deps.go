package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"

	gomodules "github.com/guardlint/guardlint/bench/guardedby/go/modules"

	"golang.org/x/tools/go/packages"
)

// depsExcluded are the modules whose imported packages point 18 of the
// after-unlock rule leaves out: those the design reserves for independent
// measurement, those the guarded_by corpus scans, and one that does not
// build with the build list.
var depsExcluded = slices.Concat(reservedModules, gomodules.Scanned, []string{
	// Not checkable: v0.13.0, which the build list selects, does not
	// compile against github.com/quic-go/quic-go v0.65.0 (server.go:429,
	// HTTPStream returns two values there).
	"github.com/quic-go/webtransport-go",
})

// reservedModules are the Go modules the design reserves for independent
// measurement.
var reservedModules = []string{
	"google.golang.org/grpc",
	"github.com/prometheus/client_golang",
	"github.com/hashicorp/memberlist",
	"github.com/hashicorp/raft",
}

// imported lists the packages that the loaded roots import, directly or
// indirectly, as point 18 takes them: not of the standard library, of no
// module in named or excluded, and not of the main module. They are
// loaded with the roots (packages.NeedDeps) rather than named on go
// list's command line: naming a package that only a dependency's
// dependency provides asks go.mod for a requirement it does not need to
// build the roots.
func imported(roots []*packages.Package, named, excluded []string) []*packages.Package {
	isRoot := map[*packages.Package]bool{}
	for _, p := range roots {
		isRoot[p] = true
	}
	var out []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) {
		if isRoot[p] || p.Module == nil || p.Module.Main {
			return
		}
		if slices.Contains(named, p.Module.Path) || slices.Contains(excluded, p.Module.Path) {
			return
		}
		out = append(out, p)
	})
	slices.SortFunc(out, func(a, b *packages.Package) int {
		if a.PkgPath < b.PkgPath {
			return -1
		}
		if a.PkgPath > b.PkgPath {
			return 1
		}
		return 0
	})
	return out
}

// restOfModules loads the other packages of the modules the imported
// packages belong to (point 24 of the after-unlock rule): for each such
// module M, the packages of M itself that the pattern M/... names with the
// build list of dir and that are not in have. A package that does not load
// there (an error from go list, for it or a package it imports, or from
// type checking) is left out, and its module is returned for the funnel
// to count: its imports need modules or go.sum entries the build list
// does not hold, or C headers the machine lacks.
func restOfModules(dir string, imported, have []*packages.Package) (taken []*packages.Package, leftOut []string, err error) {
	var modules, patterns []string
	for _, p := range imported {
		if m := p.Module.Path; !slices.Contains(modules, m) {
			modules = append(modules, m)
			patterns = append(patterns, m+"/...")
		}
	}
	if len(patterns) == 0 {
		return nil, nil, nil
	}
	seen := map[string]bool{}
	for _, p := range have {
		seen[p.PkgPath] = true
	}
	listed, err := list(dir, patterns)
	if err != nil {
		return nil, nil, err
	}
	load, leftOut := loadable(listed, modules, seen)
	if len(load) == 0 {
		return nil, leftOut, nil
	}
	pkgs, err := packages.Load(&packages.Config{Mode: scanMode, Dir: dir}, load...)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			leftOut = append(leftOut, p.Module.Path)
			continue
		}
		taken = append(taken, p)
	}
	return taken, leftOut, nil
}

// loadable splits the packages go list named into those of the modules
// that point 24 loads (not seen before) and the modules of those it
// leaves out, one entry per package: go list reports an error for the
// package or for a package it imports.
func loadable(all []listed, modules []string, seen map[string]bool) (load, leftOut []string) {
	for _, l := range all {
		// M/... also names packages of modules nested in M that the build
		// list holds: those are M's only if point 18 reached them itself.
		if l.Module == nil || !slices.Contains(modules, l.Module.Path) || seen[l.ImportPath] {
			continue
		}
		seen[l.ImportPath] = true
		if l.Error != nil || len(l.DepsErrors) > 0 {
			leftOut = append(leftOut, l.Module.Path)
			continue
		}
		load = append(load, l.ImportPath)
	}
	return load, leftOut
}

// listed is what go list says of a package, as restOfModules reads it.
type listed struct {
	ImportPath string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
	// DepsErrors are errors in the packages it imports. go/packages,
	// asked for types without the dependencies' syntax, reports only a
	// package's own errors; a package whose import does not load cannot
	// be checked by guardlint either, which loads every dependency.
	DepsErrors []struct{ Err string }
}

// list runs go list on the patterns in dir.
func list(dir string, patterns []string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Module,Error,DepsErrors"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w: %s", dir, err, stderr.String())
	}
	var all []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("go list in %s: %w", dir, err)
		}
		all = append(all, l)
	}
	return all, nil
}
