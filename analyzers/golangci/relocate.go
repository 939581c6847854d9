package golangci

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"golang.org/x/tools/go/analysis"
)

// relocateNonGo makes a's findings that lie outside Go files visible to
// golangci-lint.
//
// guardlint reports an invariant it cannot verify (a renamed target, a
// callee that no longer resolves) at the invariant's line in the YAML
// file, which the analyzers add to the pass's file set. golangci-lint
// keeps only issues in .go files and go.mod: its invalid_issue processor
// drops the rest and says so only at debug level, so a stale invariant
// would pass in silence. Such a finding is moved to the package clause of
// the package's first Go file, and its message starts with the position
// in the invariants file.
//
// Related information outside Go files ("invariant X is declared here",
// pointing into the YAML file) is dropped: golangci-lint prints related
// information from another file as a second issue at the finding's own
// position, which repeats the finding's place under a misleading text.
func relocateNonGo(a *analysis.Analyzer, dir string) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) { report(relocate(pass, d, dir)) }
		return run(pass)
	}
}

// relocate returns d, moved into a Go file when it lies elsewhere or
// nowhere.
func relocate(pass *analysis.Pass, d analysis.Diagnostic, dir string) analysis.Diagnostic {
	var related []analysis.RelatedInformation
	for _, r := range d.Related {
		if inGoFile(pass, r.Pos) {
			related = append(related, r)
		}
	}
	d.Related = related
	if inGoFile(pass, d.Pos) || len(pass.Files) == 0 {
		return d
	}
	if d.Pos.IsValid() {
		p := pass.Fset.Position(d.Pos)
		d.Message = fmt.Sprintf("%s:%d:%d: %s", core.RelPath(dir, p.Filename), p.Line, p.Column, d.Message)
	}
	anchor := pass.Files[0].Name
	d.Pos, d.End = anchor.Pos(), anchor.End()
	return d
}

// inGoFile reports whether pos lies in a .go file of the pass's file set.
func inGoFile(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), ".go")
}
