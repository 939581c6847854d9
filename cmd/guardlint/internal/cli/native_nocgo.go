//go:build !cgo

package cli

import (
	"fmt"
	"io"

	"github.com/guardlint/guardlint/analyzers/driver"
)

// A build without cgo links no tree-sitter grammar. It checks the Go
// invariants (and reports the others as not checkable, see
// driver.NotCheckedHere); prove and suggest, whose reverts and proposals
// span every language, are the full build's.
var (
	proveMain   = needsFullBuild("prove")
	suggestMain = needsFullBuild("suggest")
)

// needsFullBuild is a command of the full build, in a build without it.
func needsFullBuild(name string) func([]string, io.Writer, io.Writer, func(string) string) int {
	return func(_ []string, _, stderr io.Writer, _ func(string) string) int {
		fmt.Fprintf(stderr, "guardlint %s: %s\n", name, fullBuildOnly)
		return driver.ExitConfig
	}
}

// fullBuildOnly says why a command is missing and how to get it.
const fullBuildOnly = "this guardlint was built without cgo, so it has no C/C++/CUDA/Rust/Metal front end and no prover; build it with cgo (a C compiler, CGO_ENABLED=1) for this command"
