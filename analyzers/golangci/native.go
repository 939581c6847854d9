package golangci

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// checkNative checks the C, C++, CUDA and Rust invariants and fails when
// one does not hold or cannot be verified.
//
// Those invariants name files, not Go packages, and their findings lie in
// .c, .cu or .rs files: golangci-lint analyses Go packages and keeps
// issues only in Go files, so neither an analyzer nor a moved finding can
// carry them. Left out, they would pass unchecked; the plugin checks them
// once when golangci-lint starts, with the same front end as the
// standalone command, and stops the run on a finding, listing every one.
func checkNative(set *invariants.Set, dir string) error {
	var lines []string
	for _, f := range treesitter.Check(set, treesitter.Options{}) {
		if f.Pos.Filename == "" {
			lines = append(lines, f.Message)
			continue
		}
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", relPath(dir, f.Pos.Filename), f.Pos.Line, f.Pos.Column, f.Message))
	}
	if len(lines) > 0 {
		return fmt.Errorf("guardlint: C, C++, CUDA or Rust invariants do not hold:\n%s", strings.Join(lines, "\n"))
	}
	return nil
}
