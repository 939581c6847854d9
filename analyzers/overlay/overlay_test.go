package overlay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFilesViewOverTheDisk(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) string {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	kept := write("src/kept.cc", "kept\n")
	gone := write("src/gone.cc", "gone\n")
	changed := write("src/changed.cc", "before\n")
	added := filepath.Join(dir, "src/sub/added.cc")
	fresh := filepath.Join(dir, "fresh/only.rs")

	f := New()
	f.Replace(changed, []byte("after\n"))
	f.Replace(added, []byte("added\n"))
	f.Replace(fresh, []byte("fn f() {}\n"))
	f.Remove(gone)

	data, err := f.ReadFile(changed)
	require.NoError(t, err)
	assert.Equal(t, "after\n", string(data))
	_, err = f.ReadFile(gone)
	assert.ErrorIs(t, err, os.ErrNotExist)
	data, err = f.ReadFile(kept)
	require.NoError(t, err)
	assert.Equal(t, "kept\n", string(data))

	var walked []string
	require.NoError(t, f.WalkFiles(filepath.Join(dir, "src"), nil, func(p string) { walked = append(walked, p) }))
	assert.Equal(t, []string{changed, kept, added}, walked)

	// A directory that only the overlay has.
	assert.True(t, f.Exists(filepath.Join(dir, "fresh")))
	walked = nil
	require.NoError(t, f.WalkFiles(filepath.Join(dir, "fresh"), nil, func(p string) { walked = append(walked, p) }))
	assert.Equal(t, []string{fresh}, walked)
	assert.False(t, f.Exists(filepath.Join(dir, "nowhere")))

	ok, err := f.IsRegular(added)
	require.NoError(t, err)
	assert.True(t, ok)
	_, err = f.IsRegular(gone)
	assert.ErrorIs(t, err, os.ErrNotExist)

	// The disk is untouched.
	data, err = os.ReadFile(changed)
	require.NoError(t, err)
	assert.Equal(t, "before\n", string(data))
	_, err = os.Stat(added)
	assert.ErrorIs(t, err, os.ErrNotExist)

	// A nil view is the disk.
	var disk *Files
	data, err = disk.ReadFile(changed)
	require.NoError(t, err)
	assert.Equal(t, "before\n", string(data))
}

func TestGoOverlayHidesRemovedFiles(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone.go")
	require.NoError(t, os.WriteFile(gone, []byte("// Package doc.\npackage runtime\n\nfunc F() {}\n"), 0o644))
	f := New()
	f.Remove(gone)
	f.Replace(filepath.Join(dir, "new.go"), []byte("package runtime\n"))
	f.Replace(filepath.Join(dir, "notes.md"), []byte("not Go\n"))
	keep := map[string][]byte{"/elsewhere/x.go": []byte("package x\n")}
	ov, err := f.Go(keep)
	require.NoError(t, err)
	assert.Equal(t, "//go:build ignore\n\npackage runtime\n", string(ov[gone]))
	assert.Equal(t, "package runtime\n", string(ov[filepath.Join(dir, "new.go")]))
	assert.NotContains(t, ov, filepath.Join(dir, "notes.md"))
	assert.Contains(t, ov, "/elsewhere/x.go")
	assert.Len(t, keep, 1, "the base overlay is not modified")
}

// TestWalkFilesDescends checks that a directory the walk does not enter
// hides its files, those of the disk and the replaced ones alike, and
// that ReadFileFrom reads the disk's files with the reader it is given.
func TestWalkFilesDescends(t *testing.T) {
	dir := t.TempDir()
	disk := filepath.Join(dir, "skip/disk.cc")
	require.NoError(t, os.MkdirAll(filepath.Dir(disk), 0o755))
	require.NoError(t, os.WriteFile(disk, []byte("disk\n"), 0o644))
	top := filepath.Join(dir, "top.cc")
	require.NoError(t, os.WriteFile(top, []byte("top\n"), 0o644))
	f := New()
	replaced := filepath.Join(dir, "skip/deeper/replaced.cc")
	f.Replace(replaced, []byte("replaced\n"))
	kept := filepath.Join(dir, "keep/replaced.cc")
	f.Replace(kept, []byte("kept\n"))

	var walked []string
	descend := func(d string) bool { return filepath.Base(d) != "skip" }
	require.NoError(t, f.WalkFiles(dir, descend, func(p string) { walked = append(walked, p) }))
	assert.Equal(t, []string{kept, top}, walked)

	data, err := f.ReadFileFrom(top, func(string) ([]byte, error) { return []byte("from the reader"), nil })
	require.NoError(t, err)
	assert.Equal(t, "from the reader", string(data))
	data, err = f.ReadFileFrom(kept, func(string) ([]byte, error) { return nil, os.ErrPermission })
	require.NoError(t, err)
	assert.Equal(t, "kept\n", string(data))
}
