package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// NativeMode says what an analysis surface (go vet, golangci-lint, nogo)
// reports of the invariants that name C, C++, CUDA, Rust or Metal code.
// Those invariants name files, not Go packages, so no Go analyzer sees
// them; left out, they would pass in silence.
type NativeMode int

const (
	// NativeChecked reports the tree-sitter front end's findings, or, in
	// a build without cgo, each invariant as not checkable by the build
	// (the golangci-lint plugin).
	NativeChecked NativeMode = iota
	// NativeElsewhere reports each invariant as one that this surface
	// does not check, naming the command that does (go vet: its protocol
	// hands the tool one Go package at a time).
	NativeElsewhere
)

// VetChecksGoOnly is the message of a C, C++, CUDA, Rust or Metal
// invariant under go vet.
const VetChecksGoOnly = "go vet checks Go invariants only; run guardlint (the standalone command) to check this one"

// AnalysisSuite returns the analyzers an analysis surface runs, reading
// invariants from src: the Go analyzers of the kinds (registry.Analyzers)
// and one that reports the invariants of the other languages as mode
// says. Each invariant of another language is reported once, by the
// analysis of one package: the Go package at the top of the tree of the
// invariants file that declares it (see anchorDir).
func AnalysisSuite(src guardconf.Source, mode NativeMode) []*analysis.Analyzer {
	conf := guardconf.New(src)
	suite := append(registry.Suite(conf), nativeAnalyzer(conf, mode))
	for _, a := range suite {
		markSeverity(a, conf)
	}
	return suite
}

// markSeverity makes a's findings of warning and note invariants say so
// at the start of their message (SeverityPrefix), as the standalone
// command's text lines do. go vet's protocol and golangci-lint's plugin
// interface carry no severity for an analyzer's diagnostic: go vet fails
// on every one, and golangci-lint sets an issue's severity from its
// `severity.rules`, which can match this text (docs/golangci-lint.md).
// A finding is an invariant's when its Category is the invariant's id, as
// the kinds and the native analyzer write it. a belongs to a fresh suite,
// so wrapping its Run changes no other surface.
func markSeverity(a *analysis.Analyzer, conf *analysis.Analyzer) {
	if a.Run == nil || !slices.Contains(a.Requires, conf) {
		return
	}
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		c, _ := pass.ResultOf[conf].(*guardconf.Config)
		if c == nil || c.Set == nil {
			return run(pass)
		}
		prefix := map[string]string{}
		for _, inv := range c.Set.Invariants {
			if p := SeverityPrefix(inv.Severity); p != "" {
				prefix[inv.ID] = p
			}
		}
		if len(prefix) == 0 {
			return run(pass)
		}
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			d.Message = prefix[d.Category] + d.Message
			report(d)
		}
		return run(pass)
	}
}

// nativeAnalyzer reports the findings of the invariants of other
// languages in their anchor packages.
func nativeAnalyzer(conf *analysis.Analyzer, mode NativeMode) *analysis.Analyzer {
	var once sync.Once
	var findings []core.Finding
	anchors := &anchorCache{dirs: map[string]string{}}
	return &analysis.Analyzer{
		Name:       "native",
		Doc:        "native: report the invariants of C, C++, CUDA, Rust and Metal code\n\nThe invariants that name files of other languages than Go concern no Go package. This analyzer reports their findings (or, where the surface cannot check them, that it cannot) in one package: the one at the top of the invariants file's tree.",
		URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/driver",
		Requires:   []*analysis.Analyzer{conf},
		ResultType: reflect.TypeFor[struct{}](),
		Run: func(pass *analysis.Pass) (any, error) {
			c := pass.ResultOf[conf].(*guardconf.Config)
			dir := packageDir(pass)
			if dir == "" || strings.HasSuffix(pass.Pkg.Name(), "_test") {
				return struct{}{}, nil
			}
			once.Do(func() { findings = nativeFindings(c.Set, mode) })
			for _, f := range findings {
				if f.Invariant == nil || anchors.of(filepath.Dir(f.Invariant.Pos.File)) != dir {
					continue
				}
				pos := c.At(f.Pos)
				if !pos.IsValid() {
					pos = c.Pos(f.Invariant.Pos)
				}
				pass.Report(analysis.Diagnostic{Pos: pos, Category: f.Invariant.ID, Message: f.Message})
			}
			return struct{}{}, nil
		},
	}
}

// nativeFindings are the findings of the set's invariants of other
// languages than Go, as mode says.
func nativeFindings(set *invariants.Set, mode NativeMode) []core.Finding {
	if mode == NativeElsewhere {
		var out []core.Finding
		for _, inv := range set.Invariants {
			if inv.Lang.TreeSitter() {
				out = append(out, core.Unverifiable(inv, inv.Pos, VetChecksGoOnly))
			}
		}
		return out
	}
	out := Native(set, 0) // 0: the default parse budget
	for i, f := range out {
		if f.Invariant != nil {
			RelativeMessages(RepoRoot(filepath.Dir(f.Invariant.Pos.File)), out[i:i+1])
		}
	}
	return out
}

// packageDir is the directory of the pass's Go files, "" when it has none
// on disk.
func packageDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			dir, _ := filepath.Abs(filepath.Dir(name))
			return dir
		}
	}
	return ""
}

// anchorCache memoises anchorDir by the invariants file's directory.
type anchorCache struct {
	mu   sync.Mutex
	dirs map[string]string
}

func (a *anchorCache) of(dir string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if d, ok := a.dirs[dir]; ok {
		return d
	}
	d := anchorDir(dir)
	a.dirs[dir] = d
	return d
}

// anchorDir is the directory of the Go package that reports the
// invariants of other languages declared in an invariants file of dir:
// dir itself when it holds Go files, else the first directory below it,
// breadth first and in lexical order, that does. Directories the go
// command ignores (testdata, vendor, names starting with . or _) are
// skipped; a module in a subdirectory is not (a repository whose
// invariants file sits at the root and whose Go module is go/ reports
// there). A surface analyses packages one at a time
// (go vet runs a process per package), so each decides on its own, from
// the tree alone, whether it is the anchor; "" when there is none.
func anchorDir(dir string) string {
	dir, _ = filepath.Abs(dir)
	level := []string{dir}
	for len(level) > 0 {
		var next []string
		for _, d := range level {
			entries, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			var subs []string
			for _, e := range entries {
				name := e.Name()
				switch {
				case e.IsDir():
					if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
						continue
					}
					subs = append(subs, filepath.Join(d, name))
				case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
					return d
				}
			}
			slices.Sort(subs)
			next = append(next, subs...)
		}
		level = next
	}
	return ""
}
