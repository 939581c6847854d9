package main

import (
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
