package nativecheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckReadsThroughTheOverlay checks C++ sources that exist only in
// memory: a file whose lock the overlay removes fails, a file the overlay
// adds is found by the glob, and a file it removes is gone.
func TestCheckReadsThroughTheOverlay(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	locked := "#include <mutex>\nstruct R { std::mutex mu; void add(); };\nvoid work();\nvoid R::add() {\n  std::lock_guard<std::mutex> l(mu);\n  work();\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(src, "r.cc"), []byte(locked), 0o644))
	inv := filepath.Join(dir, "guardlint.yaml")
	require.NoError(t, os.WriteFile(inv, []byte(`version: 1
invariants:
  - id: add-locked
    why: adds race
    lang: cpp
    files: src/*.cc
    function: R::add
    hold:
      lock: mu
`), 0o644))
	set, err := registry.Load(inv)
	require.NoError(t, err)

	assert.Empty(t, nativecheck.Check(set, nativecheck.Options{}), "the file on disk holds the lock")

	view := overlay.New()
	view.Replace(filepath.Join(src, "r.cc"), []byte(strings.Replace(locked, "  std::lock_guard<std::mutex> l(mu);\n", "", 1)))
	fs := nativecheck.Check(set, nativecheck.Options{Files: view})
	require.Len(t, fs, 1)
	assert.Equal(t, "add-locked", fs[0].ID)
	assert.Equal(t, filepath.Join(src, "r.cc"), fs[0].Pos.Filename)
	data, err := os.ReadFile(filepath.Join(src, "r.cc"))
	require.NoError(t, err)
	assert.Equal(t, locked, string(data), "the disk is untouched")

	// The definition moves to a file only the overlay has.
	view = overlay.New()
	view.Remove(filepath.Join(src, "r.cc"))
	view.Replace(filepath.Join(src, "moved.cc"), []byte(locked))
	assert.Empty(t, nativecheck.Check(set, nativecheck.Options{Files: view}))

	// Removed, and nowhere else: the glob matches no file.
	view = overlay.New()
	view.Remove(filepath.Join(src, "r.cc"))
	fs = nativecheck.Check(set, nativecheck.Options{Files: view})
	require.Len(t, fs, 1)
	assert.Contains(t, fs[0].Message, `matches no file`)
}
