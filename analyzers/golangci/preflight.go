package golangci

import (
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
)

// preflight checks, before golangci-lint analyses anything, what its
// analyzers cannot report, and stops the run on a finding, listing every
// one.
//
// golangci-lint runs the analyzers on the Go packages it is given, one at a
// time. An invariant whose package was renamed or deleted concerns none of
// those packages: left to the analyzers, it would pass unchecked. The
// standalone command reports it as a finding; here there is no package to
// put it in, so it stops the run the way a broken invariants file does.
// (The C, C++, CUDA, Rust and Metal invariants name files, not packages;
// the suite's native analyzer reports them in the package at the top of
// the tree, see driver.AnalysisSuite.)
func preflight(set *invariants.Set, dir string) error {
	if err := driver.ResolveExisting(set, dir); err != nil {
		return err
	}
	return driver.ErrorOf("invariants name packages that do not exist", driver.MissingPackages(set, dir, nil), dir)
}
