package golangci

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// testDir is the package directory, where go test starts.
var testDir, _ = os.Getwd()

// build makes the plugin the way golangci-lint does, from the settings
// as viper decodes them, in the module at dir.
func build(t *testing.T, dir string, settings any) ([]*analysis.Analyzer, error) {
	t.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(testDir, dir)
	}
	t.Chdir(dir)
	newPlugin, err := register.GetPlugin(Name)
	require.NoError(t, err)
	p, err := newPlugin(settings)
	if err != nil {
		return nil, err
	}
	assert.Equal(t, register.LoadModeTypesInfo, p.GetLoadMode())
	return p.BuildAnalyzers()
}

// lint runs the analyzers over ./... in the working directory, as
// golangci-lint would, and returns the findings as
// "file:line:col: analyzer: message [related file:line: message]...",
// with files relative to the working directory.
func lint(t *testing.T, analyzers []*analysis.Analyzer) []string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "./...")
	require.NoError(t, err)
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	require.NoError(t, err)
	var out []string
	for act := range graph.All() {
		require.NoError(t, act.Err)
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			rel, err := filepath.Rel(wd, p.Filename)
			require.NoError(t, err)
			line := fmt.Sprintf("%s:%d:%d: %s: %s", rel, p.Line, p.Column, act.Analyzer.Name, d.Message)
			for _, r := range d.Related {
				rp := act.Package.Fset.Position(r.Pos)
				line += fmt.Sprintf(" [related %s:%d: %s]", filepath.Base(rp.Filename), rp.Line, r.Message)
			}
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

// TestFindings runs the plugin's analyzers over a module with a reverted
// call and a stale invariant.
func TestFindings(t *testing.T) {
	as, err := build(t, "testdata/dirty", map[string]any{"config": []any{"guardlint.yaml"}})
	require.NoError(t, err)
	// Related information pointing into guardlint.yaml is dropped:
	// golangci-lint would print it as a second issue at the finding.
	assert.Equal(t, []string{
		"p/p.go:14:26: call: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain, and contains no live call of it (why: the pool hands encoders out at +0; see https://example.com/adr/1)",
		// The stale invariant's finding lies in guardlint.yaml, which
		// golangci-lint would drop: it moves to the package clause and
		// names the invariants file's position.
		"p/p.go:2:9: hold: guardlint.yaml:15:15: invariant renamed: cannot verify: target p.Synchronize not found in package example.com/dirty/p: Synchronize is not declared in package example.com/dirty/p (why: the target was renamed)",
	}, lint(t, as))
}

// TestConfigAboveModule finds the invariants file at the root of a
// repository whose Go module lives in a subdirectory.
func TestConfigAboveModule(t *testing.T) {
	repo := noConfigRepo(t)
	mod := filepath.Join(repo, "go")
	require.NoError(t, os.Rename(filepath.Join(repo, "p"), filepath.Join(repo, "tmp")))
	require.NoError(t, os.MkdirAll(filepath.Join(mod, "p"), 0o755))
	require.NoError(t, os.Rename(filepath.Join(repo, "go.mod"), filepath.Join(mod, "go.mod")))
	code, err := os.ReadFile("testdata/dirty/p/p.go")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(mod, "p", "p.go"), code, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "guardlint.yaml"), []byte(`version: 1
invariants:
  - id: encoder-retained
    why: the pool hands encoders out at +0
    function: (*example.com/noconfig/p.CommandBuffer).getOrCreateEncoder
    call: {to: (*example.com/noconfig/p.Encoder).retain}
`), 0o644))
	as, err := build(t, mod, nil)
	require.NoError(t, err)
	got := lint(t, as)
	require.Len(t, got, 1, "%v", got)
	assert.Contains(t, got[0], "p/p.go:14:26: call: invariant encoder-retained:")
}

// TestClean runs them over a module where every invariant holds.
func TestClean(t *testing.T) {
	// No settings at all: guardlint.yaml at the module root.
	as, err := build(t, "testdata/clean/p", nil)
	require.NoError(t, err)
	assert.Empty(t, lint(t, as))
}

// TestUnknownSettingsKey checks that a misspelled settings key is an error.
func TestUnknownSettingsKey(t *testing.T) {
	_, err := build(t, "testdata/clean", map[string]any{"confg": []any{"guardlint.yaml"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `guardlint settings (allowed keys: config): decoding settings: json: unknown field "confg"`)
}

// TestSettingsWrongType checks that config must be a list.
func TestSettingsWrongType(t *testing.T) {
	_, err := build(t, "testdata/clean", map[string]any{"config": "guardlint.yaml"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot unmarshal string")
}

// noConfigRepo makes a repository with a Go module and no invariants
// file up to its root, outside this repository (whose own guardlint.yaml
// discovery would find).
func noConfigRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/noconfig\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte("package p\n"), 0o644))
	// For the custom binary: guardlint enabled, with no settings.
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(`version: "2"
linters:
  default: none
  enable:
    - guardlint
  settings:
    custom:
      guardlint:
        type: module
        description: guardlint invariants
`), 0o644))
	return dir
}

// TestNoConfig checks that finding no invariants file is an error.
func TestNoConfig(t *testing.T) {
	dir := noConfigRepo(t)
	_, err := build(t, dir, nil)
	require.Error(t, err)
	assert.Equal(t, "guardlint settings: no invariants: no -config flag, no GUARDLINT_CONFIG, and no guardlint.yaml in "+dir+" or a parent up to the repository root "+dir, err.Error())

	_, err = build(t, "testdata/clean", map[string]any{"config": []any{"absent.yaml"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "absent.yaml: no such file or directory")
}

// TestBrokenConfig checks that loader errors stop the plugin, with their
// positions.
func TestBrokenConfig(t *testing.T) {
	_, err := build(t, "testdata/broken", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "guardlint: cannot load invariants:\n")
	assert.Regexp(t, `testdata/broken/guardlint.yaml:7:5: invariant: unknown key "cal"`, err.Error())
}

// TestPackageGone checks that an invariant whose package no longer exists
// stops the run: no package golangci-lint analyses would report it.
func TestPackageGone(t *testing.T) {
	_, err := build(t, "testdata/gone", nil)
	require.Error(t, err)
	assert.Equal(t, "guardlint: invariants name packages that do not exist:\nguardlint.yaml:8:5: invariant moved: cannot verify: package example.com/gone/q not found (why: the package was renamed)", err.Error())
}

// TestDottedPaths checks names whose package path has a dot in its last
// element, in the resolver's sample module: the plugin reads them against
// the packages that exist there, before golangci-lint analyses anything.
func TestDottedPaths(t *testing.T) {
	const dotted = "../golang/resolve/testdata/dotted"
	as, err := build(t, dotted, map[string]any{"config": []any{"guardlint.yaml"}})
	require.NoError(t, err)
	assert.Empty(t, lint(t, as))

	as, err = build(t, dotted, map[string]any{"config": []any{"dirty.yaml"}})
	require.NoError(t, err)
	got := lint(t, as)
	assert.Contains(t, got, "codec.v2/codec.go:25:9: forbid: invariant no-marshal: codec.encodeLocked must not call yaml.Marshal (why: w)")
	assert.Contains(t, got, "gen/gen.go:56:10: forbid: invariant no-atomic-load: (*gen.Cache).Last must not call (*atomic.Pointer[T]).Load (why: w)")

	_, err = build(t, dotted, map[string]any{"config": []any{"missing.yaml"}})
	require.Error(t, err)
	assert.Equal(t, "guardlint: invariants name packages that do not exist:\nmissing.yaml:4:5: invariant package-typo: cannot verify: package example.com/dotted/codec not found (why: w)", err.Error())

	_, err = build(t, dotted, map[string]any{"config": []any{"ambiguous.yaml"}})
	require.Error(t, err)
	assert.Equal(t, `guardlint: names in the invariants are ambiguous:
ambiguous.yaml:7:15: invariant ambiguous: target: name "example.com/dotted/a/b.c.X" is ambiguous: packages example.com/dotted/a/b and example.com/dotted/a/b.c both exist; write ("example.com/dotted/a/b".c).X or "example.com/dotted/a/b.c".X`, err.Error())
}

// TestNativeInvariants checks that a C invariant that does not hold is an
// issue of the package at the top of the tree, at that package's clause
// (golangci-lint would drop an issue in a .c file) with the position in
// the C file first in its message, beside the Go findings of the run.
func TestNativeInvariants(t *testing.T) {
	as, err := build(t, "testdata/cfamily", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"p/p.go:2:9: native: native/buf.c:5:6: invariant buf-flushed: buf_release must call buf_flush, and contains no live call of it (why: an unflushed buffer loses the tail of the log)",
	}, lint(t, as))
}

// TestAnalyzersAreFresh checks that every BuildAnalyzers call builds its
// own values: golangci-lint may build the plugin more than once in a
// process, with different settings.
func TestAnalyzersAreFresh(t *testing.T) {
	a, err := build(t, "testdata/clean", nil)
	require.NoError(t, err)
	b, err := build(t, "testdata/clean", nil)
	require.NoError(t, err)
	require.Len(t, b, len(a))
	require.NoError(t, analysis.Validate(a))
	for i := range a {
		assert.NotSame(t, a[i], b[i], a[i].Name)
	}
}

// TestCacheKeyFollowsInvariants checks that the analyzer names, which
// golangci-lint's result cache is keyed by, change with the content of
// the invariants files and only with it.
func TestCacheKeyFollowsInvariants(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644))
	src, err := os.ReadFile("testdata/clean/guardlint.yaml")
	require.NoError(t, err)
	code, err := os.ReadFile("testdata/clean/p/p.go")
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p.go"), code, 0o644))
	write := func(content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte(content), 0o644))
	}
	names := func() string {
		as, err := build(t, dir, nil)
		require.NoError(t, err)
		var n []string
		for _, a := range as {
			n = append(n, a.Name)
		}
		return strings.Join(n, ",")
	}
	write(string(src))
	first := names()
	assert.Equal(t, first, names(), "same content, same key")
	write(strings.Replace(string(src), "evaluations interleave", "evaluations interleave their dispatches", 1))
	assert.NotEqual(t, first, names(), "edited invariants, new key")
}
