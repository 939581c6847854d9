package driver

// The machine-readable formats: guardlint's own JSON (-json) and SARIF
// 2.1.0 (-sarif), for GitHub code scanning and other SARIF viewers.
// docs/output.md documents both.
//
// Paths in both formats are relative to the repository root, so that a
// report made in CI matches the files a code host shows; a file outside
// the root keeps its absolute path.

import (
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/core"

	"github.com/guardlint/guardlint/invariants"
)

// Report is what one run found, with what a format needs around it.
type Report struct {
	// Root is the directory paths are made relative to; see RepoRoot.
	Root string
	// Set is every loaded invariant: SARIF lists each one as a rule,
	// whether or not it has findings.
	Set *invariants.Set
	// Findings are the run's findings, in the engine's order.
	Findings []core.Finding
	// Statuses, parallel to Findings, say which are baselined or on
	// unchanged lines (-baseline, -new-from-rev); nil when the run
	// compares with nothing, and the formats then leave the status out.
	Statuses []Status
}

// status is the status of finding i, "" when the report has none.
func (r Report) status(i int) Status {
	if r.Statuses == nil {
		return ""
	}
	return r.Statuses[i]
}

// relPath returns p relative to root with forward slashes, or p itself
// when it lies outside root.
func relPath(root, p string) (string, bool) {
	if root == "" || !filepath.IsAbs(p) {
		return filepath.ToSlash(p), !filepath.IsAbs(p)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return filepath.ToSlash(p), false
	}
	return filepath.ToSlash(rel), true
}
