package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheInvalidation checks the result cache: an unchanged run is
// replayed with the same findings, and an edit of a Go file, of a
// dependency, of the invariants file or of a native file is a miss whose
// result shows the edit.
func TestCacheInvalidation(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":   "module example.com/c\n\ngo 1.22\n",
		"q/q.go":   "package q\n\nfunc Flush() {}\n",
		"p/p.go":   "package p\n\nimport \"example.com/c/q\"\n\nfunc Release() {\n\tq.Flush()\n}\n",
		"src/b.cc": "void flush();\nvoid release() { flush(); }\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: go-flush, why: w, function: ./p.Release, call: {to: example.com/c/q.Flush}}
  - {id: cc-flush, why: w, lang: cpp, files: src/*.cc, function: release, call: {to: flush}}
`,
	})
	cache := t.TempDir()
	run := func() (*Result, []string) {
		t.Helper()
		set, err := Load(filepath.Join(dir, "guardlint.yaml"))
		require.NoError(t, err)
		res, err := Run(set, Options{Dir: dir, Cache: cache})
		require.NoError(t, err)
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Format(dir))
		}
		return res, got
	}
	write := func(name, content string) {
		t.Helper()
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}

	res, got := run()
	assert.False(t, res.Cached)
	assert.Empty(t, got)
	res, got = run()
	assert.True(t, res.Cached, "an unchanged run is replayed")
	assert.Empty(t, got)
	assert.Equal(t, 2, res.Checked)

	// A Go file of the checked package.
	write("p/p.go", "package p\n\nimport \"example.com/c/q\"\n\nfunc Release() {\n\t_ = q.Flush\n}\n")
	res, got = run()
	assert.False(t, res.Cached)
	require.Len(t, got, 1)
	assert.Contains(t, got[0], "invariant go-flush:")
	res, got2 := run()
	assert.True(t, res.Cached)
	assert.Equal(t, got, got2, "the replay has the same findings")
	require.NotNil(t, res.Findings[0].Invariant, "bound to the loaded invariant")
	assert.Equal(t, "go-flush", res.Findings[0].Invariant.ID)
	write("p/p.go", "package p\n\nimport \"example.com/c/q\"\n\nfunc Release() {\n\tq.Flush()\n}\n")
	_, got = run()
	assert.Empty(t, got)

	// A dependency: Flush renamed, the invariant's callee is gone.
	write("q/q.go", "package q\n\nfunc Flush() {}\n\n// Drain is new.\nfunc Drain() {}\n")
	res, got = run()
	assert.False(t, res.Cached, "an edit of a dependency is a miss")
	assert.Empty(t, got)
	write("q/q.go", "package q\n\nfunc FlushAll() {}\n\nfunc Flush() { FlushAll() }\n")
	res, _ = run()
	assert.False(t, res.Cached)

	// The invariants file.
	write("guardlint.yaml", `version: 1
invariants:
  - {id: go-flush, why: w, function: ./p.Release, call: {to: example.com/c/q.FlushAll}}
  - {id: cc-flush, why: w, lang: cpp, files: src/*.cc, function: release, call: {to: flush}}
`)
	res, got = run()
	assert.False(t, res.Cached)
	require.Len(t, got, 1, "p.Release calls Flush, not FlushAll")
	assert.Contains(t, got[0], "invariant go-flush:")

	// A native file, and a new file its glob matches.
	write("src/b.cc", "void flush();\nvoid release() {}\n")
	res, got = run()
	assert.False(t, res.Cached)
	assert.Len(t, got, 2)
	write("src/b.cc", "void flush();\nvoid release() { flush(); }\n")
	_, got = run()
	assert.Len(t, got, 1)
	write("src/c.cc", "void flush();\nvoid release() {}\n")
	res, got = run()
	assert.False(t, res.Cached, "a file the glob now matches is a miss")
	assert.Len(t, got, 2, "two functions named release: %v", got)

	// A .gitignore that leaves the new file out (the front end reads no
	// file git ignores; the tree is a repository): the files read
	// change, so the run is a miss.
	write(".gitignore", "src/c.cc\n")
	res, got = run()
	assert.False(t, res.Cached, "an edited .gitignore is a miss")
	assert.Len(t, got, 1, "src/c.cc is ignored: %v", got)
}

// TestInputsDigest checks the digest golangci-lint's cache is keyed by
// beyond Go files: it changes with a native file the invariants name and
// with the invariants, and not with a file they do not name.
func TestInputsDigest(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"src/b.cc":   "void flush();\nvoid release() { flush(); }\n",
		"other/x.cc": "void x() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: cc-flush, why: w, lang: cpp, files: src/*.cc, function: release, call: {to: flush}}
`,
	})
	digest := func() string {
		t.Helper()
		set, err := Load(filepath.Join(dir, "guardlint.yaml"))
		require.NoError(t, err)
		return InputsDigest(set)
	}
	before := digest()
	assert.Equal(t, before, digest(), "same inputs, same digest")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "other", "x.cc"), []byte("void x() { x(); }\n"), 0o644))
	assert.Equal(t, before, digest(), "a file no invariant names")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "b.cc"), []byte("void flush();\nvoid release() {}\n"), 0o644))
	edited := digest()
	if NativeFront {
		assert.NotEqual(t, before, edited, "an edited native file")
	} else {
		assert.Equal(t, before, edited, "a build that does not read native files")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "c.cc"), []byte("void c() {}\n"), 0o644))
	if NativeFront {
		assert.NotEqual(t, edited, digest(), "a new file the glob matches")
	}
}
