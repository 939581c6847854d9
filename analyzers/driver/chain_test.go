package driver

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainCopy copies testdata/chain (an upstream C++ tree, three patches,
// the invariants) to a temporary directory and returns it.
func chainCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", "chain")
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	}))
	// A module, since the run lists Go packages too (there are none).
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fork\n\ngo 1.22\n"), 0o644))
	return dir
}

// edit replaces old with new in a file of dir, once.
func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

// runChain checks the chain's invariants and returns the findings, one
// line each, relative to dir.
func runChain(t *testing.T, dir string) []string {
	t.Helper()
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.Format(dir))
	}
	return out
}

func TestPatchChainHoldsOnThePatchedTree(t *testing.T) {
	dir := chainCopy(t)
	assert.Empty(t, runChain(t, dir))
	// Upstream alone breaks all three invariants: the patches are what
	// the run checks.
	edit(t, dir, "guardlint.yaml", "  series:\n    - patches/0001-encoder-retain.patch\n    - patches/0002-registry-lock.patch\n    - patches/0003-eval-lock.patch\n", "  series: [patches/0003-eval-lock.patch]\n")
	got := runChain(t, dir)
	assert.Len(t, got, 3, "%v", got)
	for _, l := range got {
		assert.NotContains(t, l, "eval-locked")
	}
	data, err := os.ReadFile(filepath.Join(dir, "upstream/src/registry.cc"))
	require.NoError(t, err)
	assert.NotContains(t, string(data), "lock_guard", "the upstream tree is never written")
}

func TestPatchChainWithoutTheLockPatch(t *testing.T) {
	dir := chainCopy(t)
	edit(t, dir, "guardlint.yaml", "    - patches/0002-registry-lock.patch\n", "")
	got := runChain(t, dir)
	require.Len(t, got, 2, "%v", got)
	assert.Contains(t, got[0], "upstream/src/registry.cc:19:6: invariant registry-locked: gpu::Registry::add must hold mu_ (exclusive) at every statement that does work, and never acquires it")
	assert.Contains(t, got[1], "upstream/src/registry.cc:23:10: invariant registry-locked: gpu::Registry::lookup must hold mu_ (exclusive) at every statement that does work, and never acquires it")
}

func TestPatchChainWithoutAHunkOfTheLockPatch(t *testing.T) {
	dir := chainCopy(t)
	edit(t, dir, "patches/0002-registry-lock.patch", "@@ -23,2 +24,3 @@ void Registry::add(int stream, Encoder* enc) {\n Encoder* Registry::lookup(int stream) {\n+  std::lock_guard<std::mutex> lock(mu_);\n   auto it = by_stream_.find(stream);\n", "")
	got := runChain(t, dir)
	require.Len(t, got, 1, "%v", got)
	assert.Contains(t, got[0], "upstream/src/registry.cc:24:10: invariant registry-locked: gpu::Registry::lookup must hold mu_ (exclusive) at every statement that does work, and never acquires it")
}

func TestPatchChainFailsClosedOnAPatchThatDoesNotApply(t *testing.T) {
	dir := chainCopy(t)
	// Upstream renamed a parameter: the second hunk's context is gone.
	edit(t, dir, "upstream/src/registry.cc", "Encoder* Registry::lookup(int stream) {", "Encoder* Registry::lookup(int id) {")
	edit(t, dir, "upstream/src/registry.cc", "by_stream_.find(stream)", "by_stream_.find(id)")
	got := runChain(t, dir)
	want := "patches/0002-registry-lock.patch:18:1: patch patches/0002-registry-lock.patch (series entry at guardlint.yaml:9) does not apply after the patches before it: src/registry.cc hunk 2 (@@ -23,2 +24,3 @@) line 23 is \"Encoder* Registry::lookup(int id) {\", the hunk expects \"Encoder* Registry::lookup(int stream) {\""
	require.NotEmpty(t, got)
	found := false
	for _, l := range got {
		if strings.HasPrefix(l, want) {
			found = true
		}
	}
	assert.True(t, found, "want a finding starting %q in %v", want, got)
	// The patches after it are not applied: the eval lock is missing too.
	assert.Contains(t, strings.Join(got, "\n"), "invariant eval-locked")
}

func TestPatchChainChecksEachPatchReverseApplies(t *testing.T) {
	dir := chainCopy(t)
	// A fourth patch rewrites the line the lock patch added.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "patches/0004-unique-lock.patch"), []byte(`--- a/src/registry.cc
+++ b/src/registry.cc
@@ -19,3 +19,3 @@
 void Registry::add(int stream, Encoder* enc) {
-  std::lock_guard<std::mutex> lock(mu_);
+  std::unique_lock<std::mutex> lock(mu_);
   by_stream_[stream] = enc;
`), 0o644))
	edit(t, dir, "guardlint.yaml", "    - patches/0003-eval-lock.patch\n", "    - patches/0003-eval-lock.patch\n    - patches/0004-unique-lock.patch\n")
	got := runChain(t, dir)
	require.Len(t, got, 1, "%v", got)
	assert.Contains(t, got[0], "patches/0002-registry-lock.patch:14:1: patch patches/0002-registry-lock.patch")
	assert.Contains(t, got[0], "does not reverse-apply on the patched tree: a later patch changed its lines: src/registry.cc hunk 1")
}

func TestPatchChainFindingsNameThePatchLine(t *testing.T) {
	dir := chainCopy(t)
	// A fourth patch adds a function that touches the map unlocked.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "patches/0004-remove.patch"), []byte(`--- a/src/registry.cc
+++ b/src/registry.cc
@@ -27,2 +27,6 @@
 
+void Registry::remove(int stream) {
+  by_stream_.erase(stream);
+}
+
 }  // namespace gpu
`), 0o644))
	edit(t, dir, "guardlint.yaml", "    - patches/0003-eval-lock.patch\n", "    - patches/0003-eval-lock.patch\n    - patches/0004-remove.patch\n")
	edit(t, dir, "guardlint.yaml", "functions: [gpu::Registry::add, gpu::Registry::lookup]", "functions: [gpu::Registry::add, gpu::Registry::lookup, gpu::Registry::remove]")
	got := runChain(t, dir)
	require.Len(t, got, 1, "%v", got)
	assert.Contains(t, got[0], "upstream/src/registry.cc:30:6: invariant registry-locked: gpu::Registry::remove must hold mu_")
	assert.Contains(t, got[0], "; the line is from patches/0004-remove.patch:5 (why: ")
	// The patch line is a related location of the finding too.
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	assert.Equal(t, []core.Related{{
		Pos:     token.Position{Filename: filepath.Join(dir, "patches/0004-remove.patch"), Line: 5, Column: 1},
		Message: "the patch line that adds the finding's line",
	}}, res.Findings[0].Related)
}

func TestPatchChainErrorsArePositioned(t *testing.T) {
	dir := chainCopy(t)
	edit(t, dir, "guardlint.yaml", "upstream: upstream", "upstream: nowhere")
	got := runChain(t, dir)
	assert.Contains(t, strings.Join(got, "\n"), "guardlint.yaml:6:13: patches: upstream nowhere is not a directory")

	dir = chainCopy(t)
	edit(t, dir, "guardlint.yaml", "    - patches/0003-eval-lock.patch\n", "    - patches/0003-missing.patch\n")
	got = runChain(t, dir)
	assert.Contains(t, strings.Join(got, "\n"), "guardlint.yaml:10:7: patches: cannot read patches/0003-missing.patch")
}

// TestNativeAppliesTheChain: the tree-sitter check that go vet's and
// golangci-lint's runs make at start-up sees the patched tree too.
func TestNativeAppliesTheChain(t *testing.T) {
	dir := chainCopy(t)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	assert.Empty(t, Native(set, 0))
	edit(t, dir, "guardlint.yaml", "    - patches/0003-eval-lock.patch\n", "")
	set, err = registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	fs := Native(set, 0)
	require.Len(t, fs, 1)
	assert.Equal(t, "eval-locked", fs[0].ID)
}

// TestPatchChainFindingInSARIF: a patch that does not apply has a rule of
// its own in SARIF, not the description of an unknown invariant.
func TestPatchChainFindingInSARIF(t *testing.T) {
	dir := chainCopy(t)
	edit(t, dir, "upstream/src/eval.cc", "void eval_impl() {", "void eval_impl(int) {")
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	var buf strings.Builder
	require.NoError(t, SARIF(&buf, Report{Root: dir, Set: set, Findings: res.Findings}, ""))
	assert.Contains(t, buf.String(), `"ruleId": "guardlint/patches"`)
	assert.Contains(t, buf.String(), "a patch of the chain that does not apply")
	assert.Contains(t, buf.String(), `"uri": "patches/0003-eval-lock.patch"`)
}
