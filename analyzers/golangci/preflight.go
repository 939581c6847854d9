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
// time, and keeps issues only in Go files. An invariant whose package was
// renamed or deleted concerns none of those packages, and the C, C++, CUDA
// and Rust invariants name files, not packages, with findings in .c, .cu
// or .rs files: left to the analyzers, both would pass unchecked. The
// standalone command reports them as findings; here there is no package
// to put them in, so they stop the run the way a broken invariants file
// does.
func preflight(set *invariants.Set, dir string) error {
	if err := driver.ResolveExisting(set, dir); err != nil {
		return err
	}
	if err := driver.ErrorOf("invariants name packages that do not exist", driver.MissingPackages(set, dir, nil), dir); err != nil {
		return err
	}
	return driver.ErrorOf("C, C++, CUDA or Rust invariants do not hold", driver.Native(set, 0), dir) // 0: the default parse budget
}
