package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// The module example.com/lib in several copies. The copy go build compiles
// for the module of the invariants file lacks the call its invariant asks
// for; every other copy has it. A run that checks the wrong copy reports
// nothing.
const (
	libGoMod      = "module example.com/lib\n\ngo 1.22\n"
	libClean      = "package p\n\ntype Encoder struct{ refs int }\n\nfunc (e *Encoder) retain() { e.refs++ }\n\nfunc Get(e *Encoder) *Encoder {\n\te.retain()\n\treturn e\n}\n"
	libInvariants = `version: 1
invariants:
  - {id: get-retains, why: encoders come at +0, function: example.com/lib/p.Get, call: {to: (*example.com/lib/p.Encoder).retain}}
`
	appMain = "package main\n\nimport _ \"example.com/lib/p\"\n\nfunc main() {}\n"
	// libFinding is the finding on the copy whose Get lacks the call.
	libFinding = "p/p.go:7:6: invariant get-retains: p.Get must call (*p.Encoder).retain, and contains no live call of it (why: encoders come at +0)"
)

// appRequiring is an application module requiring example.com/lib, with
// the invariants file, and a shadow copy of example.com/lib (clean, with
// its own go.mod) in third_party/lib.
func appRequiring(extra string) map[string]string {
	return map[string]string{
		"app/go.mod":                   "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n" + extra,
		"app/main.go":                  appMain,
		"app/guardlint.yaml":           libInvariants,
		"app/third_party/lib/go.mod":   libGoMod,
		"app/third_party/lib/p/p.go":   libClean,
		"app/third_party/lib/p/doc.go": "// Package p is an edited copy of example.com/lib/p.\npackage p\n",
	}
}

// findingIn asserts that got is the one finding libFinding, in the copy
// whose directory path ends with copyDir.
func findingIn(t *testing.T, got []string, copyDir string) {
	t.Helper()
	require.Len(t, got, 1, "%v", got)
	assert.True(t, strings.HasSuffix(got[0], filepath.ToSlash(filepath.Join(copyDir, libFinding))), "want the finding in %s, got %s", copyDir, got[0])
}

// TestShadowCopyOfADependency: the application requires example.com/lib,
// which go build takes from the module cache (here from a local proxy),
// and keeps an edited copy with the same module path in third_party/. The
// invariant of the application's file is checked on the version in the
// module cache, and a note says that the copy was left; the copy's own
// invariants file checks the copy.
func TestShadowCopyOfADependency(t *testing.T) {
	proxy := t.TempDir()
	libSrc := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(libSrc, "go.mod"), []byte(libGoMod), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(libSrc, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(libSrc, "p", "p.go"), []byte(goEncoder), 0o644))
	publish(t, proxy, libSrc, "example.com/lib", "v1.0.0")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOFLAGS", "-mod=mod -modcacherw")
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOWORK", "")

	files := appRequiring("")
	files["app/third_party/lib/guardlint.yaml"] = libInvariants
	dir := writeTree(t, files)
	app := filepath.Join(dir, "app")
	res, got := runIn(t, app)
	findingIn(t, got, "example.com/lib@v1.0.0")
	assert.Equal(t, 1, res.Checked)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "package example.com/lib/p: checked ")
	assert.Contains(t, res.Notes[0], "example.com/lib@v1.0.0/p, which go build compiles for the module at .; third_party/lib declares the same module path")

	// The copy's own invariants file means the copy: it has the call.
	res, got = runIn(t, filepath.Join(app, "third_party", "lib"))
	assert.Empty(t, got)
	assert.Equal(t, 1, res.Checked)
	assert.Empty(t, res.Notes)
}

// TestReplaceToALocalCopy: a replace directive puts forks/lib in place of
// example.com/lib; third_party/lib is another copy that nothing names.
func TestReplaceToALocalCopy(t *testing.T) {
	files := appRequiring("\nreplace example.com/lib => ./forks/lib\n")
	files["app/forks/lib/go.mod"] = libGoMod
	files["app/forks/lib/p/p.go"] = goEncoder
	dir := writeTree(t, files)
	res, got := runIn(t, filepath.Join(dir, "app"))
	findingIn(t, got, "forks/lib")
	require.Len(t, res.Notes, 1)
	assert.Equal(t, "package example.com/lib/p: checked forks/lib/p, which go build compiles for the module at .; third_party/lib declares the same module path and is checked only by invariants files in it", res.Notes[0])
}

// TestGoWork: a go.work uses the application and lib/, a module of the
// workspace that satisfies the requirement; third_party/lib is a copy
// outside the workspace.
func TestGoWork(t *testing.T) {
	t.Setenv("GOWORK", "")
	files := appRequiring("")
	files["go.work"] = "go 1.22\n\nuse (\n\t./app\n\t./lib\n)\n"
	files["lib/go.mod"] = libGoMod
	files["lib/p/p.go"] = goEncoder
	dir := writeTree(t, files)
	res, got := runIn(t, filepath.Join(dir, "app"))
	findingIn(t, got, "lib")
	assert.NotContains(t, got[0], "third_party")
	require.Len(t, res.Notes, 1)
	// (A path outside the run's directory stays absolute.)
	assert.Equal(t, "package example.com/lib/p: checked "+filepath.Join(dir, "lib", "p")+", which go build compiles for the module at .; third_party/lib declares the same module path and is checked only by invariants files in it", res.Notes[0])

	// GOWORK=off leaves the workspace: the requirement is then unmet,
	// and the run fails to load rather than take third_party/lib.
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	paths, err := ConfigPaths(nil, func(string) string { return "" }, filepath.Join(dir, "app"))
	require.NoError(t, err)
	set, err := Load(paths...)
	require.NoError(t, err)
	_, err = Run(set, Options{Dir: filepath.Join(dir, "app")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listing packages in "+filepath.Join(dir, "app")+": main.go:3:8: module lookup disabled")
}

// TestVendorDirectory: the application vendors example.com/lib, which go
// build then compiles from vendor/.
func TestVendorDirectory(t *testing.T) {
	t.Setenv("GOWORK", "")
	files := appRequiring("")
	files["app/vendor/modules.txt"] = "# example.com/lib v1.0.0\n## explicit\nexample.com/lib/p\n"
	files["app/vendor/example.com/lib/p/p.go"] = goEncoder
	dir := writeTree(t, files)
	res, got := runIn(t, filepath.Join(dir, "app"))
	findingIn(t, got, "vendor/example.com/lib")
	require.Len(t, res.Notes, 1)
	assert.Equal(t, "package example.com/lib/p: checked vendor/example.com/lib/p, which go build compiles for the module at .; third_party/lib declares the same module path and is checked only by invariants files in it", res.Notes[0])
}

// TestTwoFilesTwoCopies: two invariants files that mean two copies of the
// same package cannot share a run, which says so.
func TestTwoFilesTwoCopies(t *testing.T) {
	t.Setenv("GOWORK", "")
	files := appRequiring("\nreplace example.com/lib => ./forks/lib\n")
	files["app/forks/lib/go.mod"] = libGoMod
	files["app/forks/lib/p/p.go"] = goEncoder
	files["app/third_party/lib/guardlint.yaml"] = strings.Replace(libInvariants, "id: get-retains", "id: copy-get-retains", 1)
	dir := writeTree(t, files)
	app := filepath.Join(dir, "app")
	set, err := Load(filepath.Join(app, "guardlint.yaml"), filepath.Join(app, "third_party", "lib", "guardlint.yaml"))
	require.NoError(t, err)
	_, err = Run(set, Options{Dir: app})
	require.Error(t, err)
	assert.Equal(t, "package example.com/lib/p is not the same package for guardlint.yaml (a dependency of the module at .) and for third_party/lib/guardlint.yaml (the module at third_party/lib): one run checks one copy of a package; check them in two runs, one per invariants file", err.Error())
}

// publish writes module path@version, from the files in src, to a
// GOPROXY=file:// directory.
func publish(t *testing.T, proxy, src, path, version string) {
	t.Helper()
	at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	require.NoError(t, os.MkdirAll(at, 0o755))
	zf, err := os.Create(filepath.Join(at, version+".zip"))
	require.NoError(t, err)
	require.NoError(t, modzip.CreateFromDir(zf, module.Version{Path: path, Version: version}, src))
	require.NoError(t, zf.Close())
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(at, version+".mod"), mod, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(at, version+".info"), []byte(`{"Version":"`+version+`"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644))
}
