package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkCopy copies the driver's patch-chain example (a C++ upstream and
// three patches) to a temporary module and loads its invariants.
func forkCopy(t *testing.T) (string, *invariants.Set) {
	t.Helper()
	src := filepath.Join("..", "driver", "testdata", "chain")
	dir := t.TempDir()
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755))
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	}))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fork\n\ngo 1.22\n"), 0o644))
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	return dir, set
}

// TestRevertOfAPatchOfTheChain drops the lock patch from the series, then
// each of its hunks alone: every removal is flagged.
func TestRevertOfAPatchOfTheChain(t *testing.T) {
	dir, set := forkCopy(t)
	rep, err := Prove(set, "patches/0002-registry-lock.patch", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	assert.Equal(t, []string{"registry-locked"}, rep.Catchers())
	require.Len(t, rep.Hunks, 2)
	for _, h := range rep.Hunks {
		assert.Equal(t, Caught, h.Verdict, hunkRange(h.Hunk))
		assert.Equal(t, "upstream/src/registry.cc", h.File)
	}
	assert.True(t, rep.OK(false))
	data, err := os.ReadFile(filepath.Join(dir, "patches/0002-registry-lock.patch"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "+  std::lock_guard<std::mutex> lock(mu_);\n   auto it", "the patch file is not written")
}

// TestUncoveredHunkOfAPatch: the retain patch also adds the release in
// end_active_encoder, which no invariant guards.
func TestUncoveredHunkOfAPatch(t *testing.T) {
	dir, set := forkCopy(t)
	rep, err := Prove(set, filepath.Join(dir, "patches/0001-encoder-retain.patch"), Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	require.Len(t, rep.Hunks, 2)
	assert.Equal(t, Caught, rep.Hunks[0].Verdict)
	assert.Equal(t, Uncovered, rep.Hunks[1].Verdict)
	assert.Equal(t, "21 (+1 -0)", hunkRange(rep.Hunks[1].Hunk))
	assert.False(t, rep.OK(false))
}

// TestRevertOfAPatchThatLaterPatchesNeed: dropping a patch whose lines a
// later patch's context includes makes that one fail to apply, which is
// flagged too.
func TestRevertOfAPatchThatLaterPatchesNeed(t *testing.T) {
	dir, _ := forkCopy(t)
	p := filepath.Join(dir, "patches/0003-eval-lock.patch")
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	// The eval patch now also changes registry.cc, with the lock line of
	// the registry patch in its context.
	extra := "diff --git a/src/registry.cc b/src/registry.cc\n--- a/src/registry.cc\n+++ b/src/registry.cc\n@@ -20,3 +20,4 @@ void Registry::add(int stream, Encoder* enc) {\n   std::lock_guard<std::mutex> lock(mu_);\n   by_stream_[stream] = enc;\n+  evaluations_.notify();\n }\n"
	require.NoError(t, os.WriteFile(p, append(data, extra...), 0o644))
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	rep, err := Prove(set, "patches/0002-registry-lock.patch", Options{Dir: dir, NoHunks: true})
	require.NoError(t, err)
	require.Empty(t, findingLines(rep.Failing, dir))
	assert.Equal(t, Caught, rep.Verdict)
	assert.Contains(t, rep.Catchers(), "patches")
	assert.Contains(t, strings.Join(findingLines(rep.Findings, dir), "\n"), "patches/0003-eval-lock.patch (series entry at ")
}
