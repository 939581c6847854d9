package golangci

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// EnvBinary names the environment variable that gives the custom
// golangci-lint binary (built by scripts/golangci-custom) to
// TestCustomBinary.
const EnvBinary = "GUARDLINT_GOLANGCI_LINT"

// golangciLint runs the custom binary in dir with a private cache and
// returns its exit code and combined output.
func golangciLint(t *testing.T, bin, cache, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+cache, "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	require.NoError(t, err, string(out))
	return 0, string(out)
}

// TestCustomBinary runs guardlint inside a real golangci-lint, built by
// scripts/golangci-custom, over the test modules: what golangci-lint
// prints, which findings survive its processors, and that bad input stops
// it with a clear error instead of passing.
func TestCustomBinary(t *testing.T) {
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		t.Skip(EnvBinary + " is unset: build golangci-lint with the plugin (scripts/golangci-custom) and set it to the binary's absolute path; .ci/run does")
	}
	require.True(t, filepath.IsAbs(bin), "%s=%s: want an absolute path", EnvBinary, bin)
	cache := t.TempDir()
	td, err := filepath.Abs("testdata")
	require.NoError(t, err)

	t.Run("violation", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "dirty"), "./...")
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, "p/p.go:14:26: call: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain, and contains no live call of it (why: the pool hands encoders out at +0; see https://example.com/adr/1) (guardlint)")
		// The stale invariant, reported in guardlint.yaml, survives
		// golangci-lint's filter of non-Go files.
		assert.Contains(t, out, "p/p.go:2:9: hold: guardlint.yaml:15:15: invariant renamed: cannot verify: target p.Synchronize not found")
		assert.NotContains(t, out, "related information")
		assert.Contains(t, out, "2 issues")
	})

	t.Run("clean", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "clean"), "./...")
		assert.Equal(t, 0, code, out)
		assert.Contains(t, out, "0 issues")
	})

	t.Run("no config", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, noConfigRepo(t), "./...")
		assert.Equal(t, 3, code, out)
		assert.Contains(t, out, "plugin(guardlint): BuildAnalyzers guardlint settings: no invariants: no -config flag, no GUARDLINT_CONFIG, and no guardlint.yaml in ")
	})

	t.Run("broken config", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "broken"), "./...")
		assert.Equal(t, 3, code, out)
		assert.Contains(t, out, `broken/guardlint.yaml:7:5: invariant: unknown key "cal"`)
	})

	t.Run("package gone", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "gone"), "./...")
		assert.Equal(t, 3, code, out)
		assert.Contains(t, out, "plugin(guardlint): BuildAnalyzers guardlint: invariants name packages that do not exist:\nguardlint.yaml:8:5: invariant moved: cannot verify: package example.com/gone/q not found")
	})

	t.Run("C invariant", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "cfamily"), "./...")
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, "p/p.go:2:9: native: native/buf.c:5:6: invariant buf-flushed: buf_release must call buf_flush")
		assert.Contains(t, out, "1 issues")
	})

	// The requires rule's facts cross packages: linting app alone still
	// finds the entry point two packages away from the operation.
	t.Run("requires across packages", func(t *testing.T) {
		// The sample module of the requires rule, shared with the engine and
		// go vet tests.
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "..", "..", "kinds", "requires", "testdata", "module"), "./app/")
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, "app/app.go:5:16: requires: invariant dispatch-locked: exported function app.Serve calls mid.Step without holding gpu.evalMu (exclusive), and nothing shows its callers hold it: app.Serve → mid.Step → mid.step → gpu.Encode")
		assert.Contains(t, out, "1 issues")
	})

	t.Run("unknown settings key", func(t *testing.T) {
		code, out := golangciLint(t, bin, cache, filepath.Join(td, "clean"), "-c", filepath.Join(td, "badkey.golangci.yml"), "./...")
		assert.Equal(t, 3, code, out)
		assert.Contains(t, out, `plugin(guardlint): newPlugin guardlint settings (allowed keys: config): decoding settings: json: unknown field "confg"`)
	})

	// An edited invariants file must not be answered from golangci-lint's
	// result cache, which is keyed by Go files and .golangci.yml only.
	t.Run("edited invariants", func(t *testing.T) {
		mod := t.TempDir()
		for _, f := range []string{"go.mod", ".golangci.yml", "guardlint.yaml", "p/p.go"} {
			data, err := os.ReadFile(filepath.Join(td, "clean", f))
			require.NoError(t, err)
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(mod, f)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(mod, f), data, 0o644))
		}
		code, out := golangciLint(t, bin, cache, mod, "./...")
		require.Equal(t, 0, code, out)
		yaml, err := os.ReadFile(filepath.Join(mod, "guardlint.yaml"))
		require.NoError(t, err)
		stale := strings.Replace(string(yaml), "function: Eval", "function: Synchronize", 1)
		require.NotEqual(t, string(yaml), stale)
		require.NoError(t, os.WriteFile(filepath.Join(mod, "guardlint.yaml"), []byte(stale), 0o644))
		code, out = golangciLint(t, bin, cache, mod, "./...")
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, "invariant eval-locked: cannot verify: target p.Synchronize not found")
	})

	// Severities: the plugin marks a warning's finding in its message,
	// and golangci-lint's own severity rules, matching that text, give
	// the issue its severity (docs/golangci-lint.md).
	t.Run("severity", func(t *testing.T) {
		mod := t.TempDir()
		require.NoError(t, os.CopyFS(mod, os.DirFS(filepath.Join(td, "cfamily"))))
		yaml, err := os.ReadFile(filepath.Join(mod, "guardlint.yaml"))
		require.NoError(t, err)
		graded := strings.Replace(string(yaml), "    why: an unflushed", "    severity: warning\n    why: an unflushed", 1)
		require.NotEqual(t, string(yaml), graded)
		require.NoError(t, os.WriteFile(filepath.Join(mod, "guardlint.yaml"), []byte(graded), 0o644))
		conf, err := os.ReadFile(filepath.Join(mod, ".golangci.yml"))
		require.NoError(t, err)
		conf = append(conf, []byte("severity:\n  default: error\n  rules:\n    - linters: [guardlint]\n      text: \"warning: invariant\"\n      severity: warning\n")...)
		require.NoError(t, os.WriteFile(filepath.Join(mod, ".golangci.yml"), conf, 0o644))
		code, out := golangciLint(t, bin, cache, mod, "--output.json.path=stdout", "--output.text.path=stderr", "./...")
		assert.Equal(t, 1, code, out)
		var report struct {
			Issues []struct {
				Text     string
				Severity string
			}
		}
		start := strings.Index(out, "{")
		require.GreaterOrEqual(t, start, 0, out)
		require.NoError(t, json.NewDecoder(strings.NewReader(out[start:])).Decode(&report), out)
		require.Len(t, report.Issues, 1, out)
		assert.Equal(t, "warning", report.Issues[0].Severity, out)
		assert.Contains(t, report.Issues[0].Text, "native: native/buf.c:5:6: warning: invariant buf-flushed: buf_release must call buf_flush", out)
	})

	// Nor an edited C file: its finding comes from the invariants, not
	// from the Go files the cache is keyed by.
	t.Run("edited C file", func(t *testing.T) {
		mod := t.TempDir()
		require.NoError(t, os.CopyFS(mod, os.DirFS(filepath.Join(td, "cfamily"))))
		code, out := golangciLint(t, bin, cache, mod, "./...")
		require.Equal(t, 1, code, out)
		require.Contains(t, out, "invariant buf-flushed: buf_release must call buf_flush")
		c, err := os.ReadFile(filepath.Join(mod, "native", "buf.c"))
		require.NoError(t, err)
		fixed := strings.Replace(string(c), "/* buf_flush(b); */", "buf_flush(b);", 1)
		require.NotEqual(t, string(c), fixed)
		require.NoError(t, os.WriteFile(filepath.Join(mod, "native", "buf.c"), []byte(fixed), 0o644))
		code, out = golangciLint(t, bin, cache, mod, "./...")
		assert.Equal(t, 0, code, out)
		assert.NotContains(t, out, "buf-flushed", "the C file's old finding was replayed")
	})
}
