package driver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRuntimeReverseEdge copies the runtime and its invariants into a
// scratch module, brings in a reverse edge of its lock order (the pool's
// drain asks the registry for its size while it holds the pool lock: the
// registry lock under the pool lock), and checks that the order reports
// it with both acquisition sites and the path between them; the copy
// without the edge is reported nothing.
func TestRuntimeReverseEdge(t *testing.T) {
	dir := scratchRuntime(t)
	assert.Empty(t, runtimeFindings(t, dir), "the runtime as it is holds its invariants")

	encoder := filepath.Join(dir, "runtime", "encoder.go")
	drain := "func (p *encoderPool) drain() {\n\tp.mu.Lock()\n"
	src := readFile(t, encoder)
	require.Contains(t, src, drain)
	reversed := strings.Replace(src, drain, drain+"\t_ = p.dev.encoders.size()\n", 1)
	require.NoError(t, os.WriteFile(encoder, []byte(reversed), 0o644))
	got := runtimeFindings(t, dir)

	// The sites: the call and the pool lock in drain, the registry's read
	// lock in size.
	lockLine := lineOf(t, reversed, drain) + 1
	sizeLine := lineOf(t, readFile(t, filepath.Join(dir, "runtime", "registry.go")), "func (r *encoderRegistry) size() int {\n") + 1
	require.Len(t, got, 1, "%v", got)
	assert.Regexp(t, fmt.Sprintf(`^runtime/encoder.go:%d:\d+: invariant runtime-lock-order: \(\*runtime.encoderPool\).drain calls \(\*runtime.encoderRegistry\).size while holding \(runtime.encoderPool\).mu \(taken at line %d\), and \(\*runtime.encoderRegistry\).size takes \(runtime.encoderRegistry\).mu at registry.go:%d: \(\*runtime.encoderPool\).drain → \(\*runtime.encoderRegistry\).size; the lock order is runtime.evalMu → \(runtime.encoderRegistry\).mu → \(runtime.encoderPool\).mu`, lockLine+1, lockLine, sizeLine), got[0])
}

// scratchRuntime copies the module's runtime, what it imports of the
// module, and its invariants into a scratch module, and returns its root.
func scratchRuntime(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum", "runtime", "internal/testhooks", "invariants/runtime.yaml"} {
		copyTree(t, filepath.Join("..", "..", p), filepath.Join(dir, p))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte("version: 1\ninclude: [invariants/runtime.yaml]\n"), 0o644))
	return dir
}

// runtimeFindings runs guardlint over the runtime of a scratch module,
// with its guardlint.yaml, and returns the findings as lines.
func runtimeFindings(t *testing.T, dir string) []string {
	t.Helper()
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir, Patterns: []string{"./runtime"}})
	require.NoError(t, err)
	lines := make([]string, len(res.Findings))
	for i, f := range res.Findings {
		lines[i] = f.Format(dir)
	}
	return lines
}

// lineOf returns the 1-based line at which text starts in src.
func lineOf(t *testing.T, src, text string) int {
	t.Helper()
	i := strings.Index(src, text)
	require.GreaterOrEqual(t, i, 0, "%q not found", text)
	return strings.Count(src[:i], "\n") + 1
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(data)
}

// copyTree copies a file, or a directory without its test files.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	}))
}
