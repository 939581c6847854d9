// Package ruletest runs rule analyzers over annotated test data, like
// analysistest, and also returns the findings that land in invariants
// files, which `// want` comments cannot annotate.
package ruletest

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Run runs a through analysistest on pkgs under dir. Findings in Go files
// are checked against `// want` comments as usual; findings in other files
// are returned as "file:line: message", with file the base name.
func Run(t *testing.T, dir string, a *analysis.Analyzer, pkgs ...string) []string {
	t.Helper()
	rec := &recorder{}
	results := analysistest.Run(rec, dir, a, pkgs...)
	var out []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if !strings.HasSuffix(p.Filename, ".go") {
				out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message))
			}
		}
	}
	for _, e := range rec.errs {
		if strings.Contains(e, "unexpected diagnostic") && !strings.Contains(e, ".go:") {
			continue // returned above
		}
		t.Error(e)
	}
	sort.Strings(out)
	return out
}

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Kind runs the analyzer of a kind, built by newAnalyzer on the
// invariants of file, over packages of testdata/src: their `// want`
// comments are what must be reported, and nothing else may be. It returns
// the findings in invariants files, which no comment can annotate.
func Kind(t *testing.T, newAnalyzer func(conf *analysis.Analyzer) *analysis.Analyzer, file string, pkgs ...string) []string {
	t.Helper()
	a := newAnalyzer(guardconf.New(registry.Files(file)))
	return Run(t, analysistest.TestData(), a, pkgs...)
}
