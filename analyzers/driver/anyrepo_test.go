package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTree writes files (slash-separated names) under a new temporary
// directory that is the root of a repository (it has a .git entry), and
// returns the directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// runIn loads the invariants found from dir and runs over patterns there,
// returning the findings formatted relative to dir.
func runIn(t *testing.T, dir string, patterns ...string) (*Result, []string) {
	t.Helper()
	paths, err := ConfigPaths(nil, func(string) string { return "" }, dir)
	require.NoError(t, err)
	set, err := Load(paths...)
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir, Patterns: patterns})
	require.NoError(t, err)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Format(dir))
	}
	return res, got
}

const (
	goEncoder = "package p\n\ntype Encoder struct{ refs int }\n\nfunc (e *Encoder) retain() { e.refs++ }\n\nfunc Get(e *Encoder) *Encoder {\n\t// e.retain()\n\treturn e\n}\n"
	rustLib   = "pub fn get(encoder: &Encoder) {\n    if false {\n        msg_send![encoder, retain];\n    }\n}\n"
)

// TestNoGoModule runs in a Rust crate: no go.mod anywhere, the invariant
// is checked, not refused for want of a module.
func TestNoGoModule(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"enc\"\n",
		"src/lib.rs": rustLib,
		"guardlint.yaml": `version: 1
invariants:
  - {id: retained, why: encoders come at +0, lang: rust, files: src/*.rs, function: get, call: {to: "msg_send![encoder, retain]"}}
`,
	})
	res, got := runIn(t, filepath.Join(dir, "src"))
	assert.Equal(t, []string{"lib.rs:3:9: invariant retained: get must call msg_send![encoder, retain]; this call does not count: it is in a branch under a constant false condition (why: encoders come at +0)"}, got)
	assert.Equal(t, 1, res.Checked)
	assert.Empty(t, res.NotChecked)
}

// TestModuleInSubdirectory runs from the root of a repository whose Go
// module lives in go/, with the invariants at the root naming its
// packages by import path; and from inside the module.
func TestModuleInSubdirectory(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go/go.mod":   "module example.com/enc\n\ngo 1.22\n",
		"go/p/p.go":   goEncoder,
		"native/x.cc": "void f() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: retained, why: encoders come at +0, function: (*example.com/enc/p.Encoder).retain, forbid: {call: Get}, package: example.com/enc/p}
  - {id: get-retains, why: encoders come at +0, function: example.com/enc/p.Get, call: {to: (*example.com/enc/p.Encoder).retain}}
`,
	})
	want := "go/p/p.go:7:6: invariant get-retains: p.Get must call (*p.Encoder).retain, and contains no live call of it (why: encoders come at +0)"
	res, got := runIn(t, dir)
	assert.Equal(t, []string{want}, got)
	assert.Equal(t, 2, res.Checked)

	// From inside the module, the same invariants file is found above it.
	_, got = runIn(t, filepath.Join(dir, "go", "p"), ".")
	assert.Equal(t, []string{"p.go:7:6: invariant get-retains: p.Get must call (*p.Encoder).retain, and contains no live call of it (why: encoders come at +0)"}, got)

	// From a directory beside the module, which is found under the
	// repository root.
	// (Paths outside the directory stay absolute.)
	_, got = runIn(t, filepath.Join(dir, "native"), "../go/...")
	assert.Equal(t, []string{filepath.Join(dir, want)}, got)
}

// TestSeveralModules checks one invariants file over two modules, and a
// partial run that covers one of them.
func TestSeveralModules(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/go.mod": "module example.com/a\n\ngo 1.22\n",
		"a/p/p.go": goEncoder,
		"b/go.mod": "module example.com/b\n\ngo 1.22\n",
		"b/p/p.go": goEncoder,
		"guardlint.yaml": `version: 1
invariants:
  - {id: a-get, why: w, function: example.com/a/p.Get, call: {to: (*example.com/a/p.Encoder).retain}}
  - {id: b-get, why: w, function: example.com/b/p.Get, call: {to: (*example.com/b/p.Encoder).retain}}
`,
	})
	res, got := runIn(t, dir)
	assert.Len(t, got, 2, "%v", got)
	assert.Contains(t, got[0], "a/p/p.go:7:6: invariant a-get:")
	assert.Contains(t, got[1], "b/p/p.go:7:6: invariant b-get:")
	assert.Equal(t, 2, res.Checked)

	res, got = runIn(t, dir, "./b/...")
	require.Len(t, got, 1, "%v", got)
	assert.Contains(t, got[0], "b/p/p.go:7:6: invariant b-get:")
	assert.Equal(t, 1, res.Checked)
	require.Len(t, res.NotChecked, 1)
	assert.Equal(t, "a-get", res.NotChecked[0].ID)
}

// TestPartialRun runs on part of a clean module: the invariants of the
// other packages are counted as not checked, not failed; a package that
// does not exist stays a finding; and a run that none of the invariants
// concerns fails closed.
func TestPartialRun(t *testing.T) {
	clean := "package p\n\ntype Encoder struct{ refs int }\n\nfunc (e *Encoder) retain() { e.refs++ }\n\nfunc Get(e *Encoder) *Encoder {\n\te.retain()\n\treturn e\n}\n"
	dir := writeTree(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"app/p/p.go":   clean,
		"core/p/p.go":  clean,
		"tools/t/t.go": "package t\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: app-get, why: w, function: ./app/p.Get, call: {to: (*./app/p.Encoder).retain}}
  - {id: core-get, why: w, function: ./core/p.Get, call: {to: (*./core/p.Encoder).retain}}
  - {id: core-get-2, why: w, function: ./core/p.Get, forbid: {call: ./core/p.Get}}
`,
	})
	res, got := runIn(t, dir, "./app/...")
	assert.Empty(t, got)
	assert.Equal(t, 1, res.Checked)
	assert.Len(t, res.NotChecked, 2)

	// "." from a subdirectory.
	res, got = runIn(t, filepath.Join(dir, "core", "p"), ".")
	assert.Empty(t, got)
	assert.Equal(t, 2, res.Checked)
	assert.Len(t, res.NotChecked, 1)

	// Nothing of the configuration applies: fail closed.
	res, got = runIn(t, dir, "./tools/...")
	assert.Equal(t, []string{"guardlint.yaml:1:1: cannot verify: none of the 3 invariants of guardlint.yaml concerns a package of ./tools/..."}, got)
	assert.Equal(t, 0, res.Checked)

	// A package that does not exist is a finding in any run.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte(`version: 1
invariants:
  - {id: app-get, why: w, function: ./app/p.Get, call: {to: (*./app/p.Encoder).retain}}
  - {id: gone, why: w, function: ./gone/p.Get, call: {to: ./gone/p.F}}
`), 0o644))
	res, got = runIn(t, dir, "./app/...")
	assert.Equal(t, []string{"guardlint.yaml:4:5: invariant gone: cannot verify: package example.com/m/gone/p not found (why: w)"}, got)
	assert.Equal(t, 1, res.Checked)
	assert.Empty(t, res.NotChecked)
}

// TestPartialRunFollowsFacts runs the requires rule's sample module on
// ./app/... only: the operation two packages away is still followed,
// and mid's own finding, outside the run, is not reported.
func TestPartialRunFollowsFacts(t *testing.T) {
	dir, err := filepath.Abs("../kinds/requires/testdata/module")
	require.NoError(t, err)
	set, err := Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir, Patterns: []string{"./app/..."}})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1, "%v", res.Findings)
	assert.Contains(t, res.Findings[0].Format(dir), "app/app.go:5:16: invariant dispatch-locked: exported function app.Serve calls mid.Step")
	assert.Equal(t, 1, res.Checked)
}

// TestBuildFlags checks that -tags reaches package loading: the guarded
// call is in a file that only the tag selects.
func TestBuildFlags(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"p/p.go":       "package p\n\nfunc helper() {}\n",
		"p/run.go":     "//go:build !fast\n\npackage p\n\nfunc Run() { helper() }\n",
		"p/runfast.go": "//go:build fast\n\npackage p\n\nfunc Run() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: run-helps, why: w, function: ./p.Run, call: {to: ./p.helper}}
`,
	})
	set, err := Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	res, err = Run(set, Options{Dir: dir, BuildFlags: []string{"-tags=fast"}})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	assert.Contains(t, res.Findings[0].Format(dir), "p/runfast.go:5:6: invariant run-helps:")
}

// TestConfigDiscovery checks the order: -config, $GUARDLINT_CONFIG, then
// the nearest guardlint.yaml at or above the directory, up to the
// repository root and not beyond.
func TestConfigDiscovery(t *testing.T) {
	outer := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outer, DefaultFile), []byte("version: 1\n"), 0o644))
	repo := filepath.Join(outer, "repo")
	sub := filepath.Join(repo, "go", "pkg")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	noEnv := func(string) string { return "" }

	_, err := ConfigPaths(nil, noEnv, sub)
	require.ErrorIs(t, err, ErrNoConfig, "the file above the repository root is not read")
	assert.Contains(t, err.Error(), "no guardlint.yaml in "+sub+" or a parent up to the repository root "+repo)

	root := filepath.Join(repo, DefaultFile)
	require.NoError(t, os.WriteFile(root, []byte("version: 1\n"), 0o644))
	got, err := ConfigPaths(nil, noEnv, sub)
	require.NoError(t, err)
	assert.Equal(t, []string{root}, got)

	nearer := filepath.Join(repo, "go", DefaultFile)
	require.NoError(t, os.WriteFile(nearer, []byte("version: 1\n"), 0o644))
	got, err = ConfigPaths(nil, noEnv, sub)
	require.NoError(t, err)
	assert.Equal(t, []string{nearer}, got)

	env := func(k string) string {
		if k == EnvConfig {
			return "a.yaml, /abs/b.yaml"
		}
		return ""
	}
	got, err = ConfigPaths(nil, env, sub)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(sub, "a.yaml"), "/abs/b.yaml"}, got)
	got, err = ConfigPaths([]string{"c.yaml"}, env, sub)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(sub, "c.yaml")}, got)
}

// TestDependencyPackage checks an invariant on a package that no module
// of the repository holds (here the standard library's): go list finds it
// from the module around the directory, by its import path as a pattern.
func TestDependencyPackage(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"p/p.go": "package p\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: once-slow-path, why: w, function: (*sync.Once).Do, call: {to: (*sync.Once).doSlow}}
`,
	})
	res, got := runIn(t, dir, "sync")
	assert.Empty(t, got)
	assert.Equal(t, 1, res.Checked)
	assert.Empty(t, res.NotChecked)
}
