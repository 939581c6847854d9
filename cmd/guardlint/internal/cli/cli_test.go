package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func noEnv(string) string { return "" }

// noConfigRepo makes a repository with a Go module and no invariants
// file anywhere up to its root. It lives outside this repository, whose
// own guardlint.yaml discovery would otherwise find.
func noConfigRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod": "module example.com/noconfig\n\ngo 1.26\n",
		"p/p.go": "package p\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	return dir
}

func run(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut, getenv)
	return code, out.String(), errOut.String()
}

func TestFindings(t *testing.T) {
	code, out, _ := run(t, noEnv, "-C", "testdata/dirty", "./...")
	assert.Equal(t, ExitFindings, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	assert.Equal(t, "guardlint.yaml:13:5: invariant gone: cannot verify: package example.com/dirty/q not found; closest: example.com/dirty/p (why: the package was renamed)", lines[0])
	assert.Equal(t, "p/p.go:11:26: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain, and contains no live call of it (why: the pool hands encoders out at +0; see https://example.com/adr/1)", lines[1])
}

func TestClean(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/clean")
	assert.Equal(t, ExitClean, code, out+errOut)
	assert.Empty(t, out)
}

func TestConfigFlagAndEnv(t *testing.T) {
	// An explicit file wins over discovery; so does the environment.
	cfg, err := filepath.Abs("testdata/dirty/guardlint.yaml")
	require.NoError(t, err)
	code, out, _ := run(t, noEnv, "-C", "testdata/clean", "-config", cfg, "./...")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "cannot verify: none of the 2 invariants of cmd/guardlint/internal/cli/testdata/dirty/guardlint.yaml concerns a package of ./...", "the path relative to the repository root")
	env := func(k string) string {
		if k == driver.EnvConfig {
			return cfg
		}
		return ""
	}
	code, out, _ = run(t, env, "-C", "testdata/clean", "./...")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "cannot verify: none of the 2 invariants of cmd/guardlint/internal/cli/testdata/dirty/guardlint.yaml concerns a package of ./...", "the path relative to the repository root")
}

func TestBrokenConfig(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/broken")
	assert.Equal(t, ExitConfig, code)
	assert.Empty(t, out)
	assert.Equal(t, `guardlint.yaml:7:5: invariant: unknown key "colour" (allowed: id, why, ref, severity, enabled, lang, package, runs, guards, lock_calls, files, include_ignored, all, defines, erase, function, functions, field, call, hold, owns, guarded_by, forbid, order, requires, excludes, lock_order, never_acquires)
guardlint.yaml:11:5: invariant: unknown key "cal"; did you mean "call"? (allowed: id, why, ref, severity, enabled, lang, package, runs, guards, lock_calls, files, include_ignored, all, defines, erase, function, functions, field, call, hold, owns, guarded_by, forbid, order, requires, excludes, lock_order, never_acquires)
`, errOut)
}

// dotted is the resolver's sample module, whose packages have dots in the
// last element of their import paths.
const dotted = "../../../../analyzers/golang/resolve/testdata/dotted"

// TestAmbiguousName checks that a name two packages of the run can hold
// is an error of the invariants file: exit status 2, at its position.
func TestAmbiguousName(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", dotted, "-config", "ambiguous.yaml", "./...")
	assert.Equal(t, ExitConfig, code)
	assert.Empty(t, out)
	assert.Equal(t, `ambiguous.yaml:7:15: invariant ambiguous: target: name "example.com/dotted/a/b.c.X" is ambiguous: packages example.com/dotted/a/b and example.com/dotted/a/b.c both exist; write ("example.com/dotted/a/b".c).X or "example.com/dotted/a/b.c".X
`, errOut)

	code, out, errOut = run(t, noEnv, "-C", dotted, "./...")
	assert.Equal(t, ExitClean, code, out+errOut)
}

func TestNoConfig(t *testing.T) {
	dir := noConfigRepo(t)
	code, _, errOut := run(t, noEnv, "-C", filepath.Join(dir, "p"))
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "guardlint: no invariants: no -config flag, no GUARDLINT_CONFIG, and no guardlint.yaml in "+filepath.Join(dir, "p")+" or a parent up to the repository root "+dir)
}

func TestMissingConfigFile(t *testing.T) {
	code, _, errOut := run(t, noEnv, "-C", "testdata/clean", "-config", "absent.yaml")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "absent.yaml: no such file or directory")
}

func TestBadFlag(t *testing.T) {
	code, _, errOut := run(t, noEnv, "-nope")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "flag provided but not defined: -nope")
}

func TestTypeErrorsFailClosed(t *testing.T) {
	code, _, errOut := run(t, noEnv, "-C", "testdata/typeerr")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "undefined: undefined")
}

func TestIsVet(t *testing.T) {
	assert.True(t, IsVet([]string{"-flags"}))
	assert.True(t, IsVet([]string{"-V=full"}))
	assert.True(t, IsVet([]string{"-config=x.yaml", "-json", "/tmp/vet.cfg"}))
	assert.False(t, IsVet([]string{"./..."}))
	assert.False(t, IsVet(nil))
}

// TestCgoFreeBuild builds guardlint without cgo, as a Go-only user on a
// machine without a C compiler does, and runs it standalone and as go
// vet's tool on a module with a Go invariant and a C invariant that both
// fail: the Go one is reported, the C one as not checkable by this build
// (standalone) or by go vet, at its line, and prove says it needs the
// full build.
func TestCgoFreeBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guardlint binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "guardlint")
	build := exec.Command("go", "build", "-o", bin, "github.com/guardlint/guardlint/cmd/guardlint")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	run := func(name string, args ...string) (int, string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = "testdata/mixed"
		cmd.Env = append(os.Environ(), "GOFLAGS=", driver.EnvConfig+"=")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		return code, string(out)
	}
	goFinding := "p/p.go:14:26: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain"
	code, got := run(bin, "./...")
	assert.Equal(t, driver.ExitFindings, code, got)
	assert.Contains(t, got, goFinding)
	assert.Contains(t, got, "guardlint.yaml:8:5: invariant buf-flushed: cannot verify: "+driver.NotCheckedHere)

	code, got = run("go", "vet", "-vettool="+bin, "./...")
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, goFinding)
	assert.Contains(t, got, "guardlint.yaml:8:5: invariant buf-flushed: cannot verify: "+driver.VetChecksGoOnly)

	code, got = run(bin, "prove", "./...")
	assert.Equal(t, driver.ExitConfig, code, got)
	assert.Contains(t, got, "guardlint prove: this guardlint was built without cgo")
}

// TestGoVet builds guardlint and runs it as go vet's tool, the way users
// do: an absolute -vettool path, configuration found at the module root.
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guardlint binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "guardlint")
	build := exec.Command("go", "build", "-o", bin, "github.com/guardlint/guardlint/cmd/guardlint")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	vet := func(dir string, extra ...string) (int, string) {
		args := append([]string{"vet", "-vettool=" + bin}, extra...)
		cmd := exec.Command("go", append(args, "./...")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", driver.EnvConfig+"=")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		return code, string(out)
	}
	code, got := vet("testdata/dirty")
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain")

	code, got = vet("testdata/clean")
	assert.Equal(t, 0, code, got)

	// -config is listed by -flags, so go vet passes it through.
	cfg, err := filepath.Abs("testdata/dirty/guardlint.yaml")
	require.NoError(t, err)
	code, got = vet("testdata/clean", "-config="+cfg)
	assert.Equal(t, 0, code, got) // dirty's packages are not in clean: nothing to check

	// A broken configuration fails, with its position.
	code, got = vet("testdata/broken")
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, `guardlint.yaml:7:5: invariant: unknown key "colour"`)

	// A C invariant is a finding too: go vet hands the tool one Go package
	// at a time, so it says that it checks Go only, at the invariant's
	// line, never a silent pass.
	code, got = vet("testdata/mixed")
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "p/p.go:14:26: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain")
	assert.Contains(t, got, "guardlint.yaml:8:5: invariant buf-flushed: cannot verify: "+driver.VetChecksGoOnly)

	// Severities: go vet's protocol has none, so a warning's or a note's
	// finding says so in its message, as the command's text lines do (it
	// still fails go vet, which fails on every finding: docs/go-vet.md).
	graded := t.TempDir()
	require.NoError(t, os.CopyFS(graded, os.DirFS("testdata/mixed")))
	yaml, err := os.ReadFile(filepath.Join(graded, "guardlint.yaml"))
	require.NoError(t, err)
	yaml = []byte(strings.Replace(strings.Replace(string(yaml),
		"    why: the pool", "    severity: warning\n    why: the pool", 1),
		"    why: an unflushed", "    severity: note\n    why: an unflushed", 1))
	require.NoError(t, os.WriteFile(filepath.Join(graded, "guardlint.yaml"), yaml, 0o644))
	code, got = vet(graded)
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "p/p.go:14:26: warning: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain")
	assert.Contains(t, got, "guardlint.yaml:9:5: note: invariant buf-flushed: cannot verify: "+driver.VetChecksGoOnly)

	// No invariants anywhere is an error too, not a vet run that checks
	// nothing.
	code, got = vet(noConfigRepo(t))
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "guardlint: no invariants: no -config flag, no GUARDLINT_CONFIG, and no guardlint.yaml in ")

	// The requires rule's facts cross packages under go vet too: vetting
	// app alone, whose dependencies go vet analyses for their facts only,
	// still finds the entry point two packages away from the operation.
	req := exec.Command("go", "vet", "-vettool="+bin, "./app/")
	req.Dir = "../../../../analyzers/kinds/requires/testdata/module" // the requires rule's sample module
	req.Env = append(os.Environ(), "GOFLAGS=", driver.EnvConfig+"=")
	out, err = req.CombinedOutput()
	require.Error(t, err, string(out))
	assert.Contains(t, string(out), "app/app.go:5:16: invariant dispatch-locked: exported function app.Serve calls mid.Step without holding gpu.evalMu (exclusive), and nothing shows its callers hold it: app.Serve → mid.Step → mid.step → gpu.Encode")
	assert.NotContains(t, string(out), "mid/mid.go", "a dependency's findings are not printed")

	// Names with dots in the last element of their package path: each
	// unit reads them against its package and imports. The invariants
	// hold, the broken ones fire, and a name that a unit's imports can
	// read two ways stops it.
	code, got = vet(dotted)
	assert.Equal(t, 0, code, got)
	dirtyDotted, err := filepath.Abs(filepath.Join(dotted, "dirty.yaml"))
	require.NoError(t, err)
	code, got = vet(dotted, "-config="+dirtyDotted)
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "codec.v2/codec.go:25:9: invariant no-marshal: codec.encodeLocked must not call yaml.Marshal")
	assert.Contains(t, got, "gen/gen.go:56:10: invariant no-atomic-load: (*gen.Cache).Last must not call (*atomic.Pointer[T]).Load")
	// app alone: api.v1, a dependency analysed for its facts only, reads
	// the names too, or the requirement does not reach app.
	req = exec.Command("go", "vet", "-vettool="+bin, "-config="+dirtyDotted, "./app/")
	req.Dir = dotted
	req.Env = append(os.Environ(), "GOFLAGS=", driver.EnvConfig+"=")
	out, err = req.CombinedOutput()
	require.Error(t, err, string(out))
	assert.Contains(t, string(out), "app/app.go:8:12: invariant decode-under-mu: exported function app.Serve calls api.Step without holding codec.v2.mu (exclusive)")
	ambiguous, err := filepath.Abs(filepath.Join(dotted, "ambiguous.yaml"))
	require.NoError(t, err)
	code, got = vet(dotted, "-config="+ambiguous)
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "# example.com/dotted/a/both\nambiguous.yaml:7:15: invariant ambiguous: target: name \"example.com/dotted/a/b.c.X\" is ambiguous")

	// The pitfalls docs/go-vet.md warns about. A -vettool that expands to
	// nothing runs go vet's own analyzers, which pass on the reverted
	// code. A bare name is not looked up on PATH but taken relative to
	// the current directory, and fails there.
	plainVet := func(tool string) (string, error) {
		cmd := exec.Command("go", "vet", "-vettool="+tool, "./...")
		cmd.Dir = "testdata/dirty"
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	got, err = plainVet("")
	assert.NoError(t, err, "an empty -vettool runs plain vet, which passes: %s", got)
	assert.NotContains(t, got, "invariant encoder-retained")
	got, err = plainVet("guardlint")
	assert.Error(t, err)
	assert.Contains(t, got, filepath.Join("testdata", "dirty", "guardlint")+" -flags failed")
}

// TestGoVetFollowsInvariants edits the invariants file between go vet
// runs over unchanged Go code. go vet replays a package's cached result
// when its tool identity (-V=full) is unchanged, so without the
// invariants' digest in that identity a broken file would still pass and
// a fixed invariant would still fail.
func TestGoVetFollowsInvariants(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guardlint binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "guardlint")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/guardlint/guardlint/cmd/guardlint").CombinedOutput()
	require.NoError(t, err, string(out))
	dir := noConfigRepo(t)
	src, err := os.ReadFile("testdata/clean/p/p.go")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p.go"), src, 0o644))
	clean, err := os.ReadFile("testdata/clean/guardlint.yaml")
	require.NoError(t, err)
	failing := strings.Replace(string(clean), "call: {to: (*Encoder).retain}", "forbid: {call: (*Encoder).retain}", 1)
	broken := strings.Replace(string(clean), "call:", "cal:", 1)
	require.NotEqual(t, string(clean), failing)
	require.NotEqual(t, string(clean), broken)

	vet := func(yaml string) (int, string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, driver.DefaultFile), []byte(yaml), 0o644))
		cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", driver.EnvConfig+"=")
		out, err := cmd.CombinedOutput()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		require.NoError(t, err)
		return 0, string(out)
	}
	code, got := vet(string(clean))
	require.Equal(t, 0, code, got)
	code, got = vet(broken)
	assert.NotEqual(t, 0, code, "a broken invariants file fails after a clean run: %s", got)
	assert.Contains(t, got, `guardlint.yaml:7:5: invariant: unknown key "cal"`)
	code, got = vet(failing)
	assert.NotEqual(t, 0, code, got)
	assert.Contains(t, got, "invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must not call (*p.Encoder).retain")
	code, got = vet(string(clean))
	assert.Equal(t, 0, code, "the fixed invariant passes after a failing run: %s", got)

	// The identity names the version and the digest, in the form go vet
	// reads: "<name> version devel ... buildID=<id>".
	idOf := func() string {
		cmd := exec.Command(bin, "-V=full")
		cmd.Dir = dir
		out, err := cmd.Output()
		require.NoError(t, err)
		return string(out)
	}
	first := idOf()
	assert.Regexp(t, `^\S+ version devel \S+ invariants=[0-9a-f]{16} buildID=[0-9a-f]{64}\n$`, first)
	require.NoError(t, os.WriteFile(filepath.Join(dir, driver.DefaultFile), []byte(failing), 0o644))
	assert.NotEqual(t, first, idOf())
}
