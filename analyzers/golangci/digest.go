package golangci

import (
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// digestAnalyzer returns an analyzer that reports nothing and is named
// after the content of the invariants files, this build's front ends
// and the native files the invariants name (driver.InputsDigest).
//
// golangci-lint caches each package's issues under a key made of the
// package's Go files, its dependencies, the .golangci.yml linter settings
// and the names of the linter's analyzers. The invariants files are none
// of these, so without this analyzer an edited invariants file (a new
// invariant, a renamed target) would be answered from the cache with the
// issues of the old one until some Go file changed; so would an edited C
// file, and a plugin rebuilt with or without cgo (its version string, the
// rest of the key, names only the .custom-gcl.yml). Naming an analyzer
// after the digest of these inputs puts them into the key.
func digestAnalyzer(set *invariants.Set) *analysis.Analyzer {
	sum := driver.InputsDigest(set)
	return &analysis.Analyzer{
		Name: "invariants_" + sum,
		Doc:  "name golangci-lint's result cache after the invariants files " + sum,
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
}
