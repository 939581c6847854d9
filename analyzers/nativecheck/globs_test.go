package nativecheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoCopies is a source and a generated copy of it: f is defined twice
// unless the copy is left out.
var twoCopies = map[string][]byte{
	"src/f.c":           []byte("void g(void);\nvoid f(void) { g(); }\n"),
	"build/gen/f.c":     []byte("void g(void);\nvoid f(void) { g(); }\n"),
	"src/gen/f_copy.c":  []byte("void g(void);\nvoid f(void) { g(); }\n"),
	"src/gen/README.md": []byte("generated\n"),
}

func TestAnExcludeLeavesFilesOut(t *testing.T) {
	found := checkTree(t, twoCopies, `version: 1
invariants:
  - {id: f-calls, why: w, lang: c, files: ["**/*.c"], function: f, call: {to: g}}
  - {id: f-calls-excluded, why: w, lang: c, files: ["**/*.c", "!build/**", "!src/gen/*.c"], function: f, call: {to: g}}
  - {id: all-excluded, why: w, lang: c, files: ["src/*.c", "!**/f.c"], function: f, call: {to: g}}
`)
	require.Len(t, found, 2, "%v", messages(found))
	assert.Equal(t, "f-calls", found[0].ID)
	assert.Contains(t, found[0].Message, "function f is defined 3 times")
	assert.Equal(t, "all-excluded", found[1].ID)
	assert.Contains(t, found[1].Message, "the excludes leave no file")
}

func TestGitIgnoredFilesAreLeftOut(t *testing.T) {
	files := map[string][]byte{".gitignore": []byte("# build output\n/build/\ngen/\n!src/gen/keep.c\n")}
	for k, v := range twoCopies {
		files[k] = v
	}
	// git does not look into an ignored directory, so keep.c stays out.
	files["src/gen/keep.c"] = []byte("void h(void) {}\n")
	files[".git/HEAD"] = []byte("ref: refs/heads/main\n")
	found := checkTree(t, files, `version: 1
invariants:
  - {id: f-calls, why: w, lang: c, files: "**/*.c", function: f, call: {to: g}}
  - {id: f-calls-all, why: w, lang: c, files: "**/*.c", include_ignored: true, function: f, call: {to: g}}
  - {id: h-ignored, why: w, lang: c, files: "src/**/*.c", function: h, call: {to: g}}
  - {id: h-named, why: w, lang: c, files: "src/gen/keep.c", function: h, call: {to: h}}
`)
	require.Len(t, found, 3, "%v", messages(found))
	assert.Equal(t, "f-calls-all", found[0].ID)
	assert.Contains(t, found[0].Message, "function f is defined 3 times")
	assert.Equal(t, "h-ignored", found[1].ID)
	assert.Contains(t, found[1].Message, "function h not found")
	// A file named without wildcards is read whatever git says: h is
	// found there, and fails its rule.
	assert.Equal(t, "h-named", found[2].ID)
	assert.Contains(t, found[2].Message, "h must call h")
}

func TestFilesOfExcludesOnlyIsAnError(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "guardlint.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte(`version: 1
invariants:
  - {id: x, why: w, lang: c, files: ["!gen/*.c"], function: f, call: {to: g}}
  - {id: y, why: w, lang: c, files: ["src/*.c", "!"], function: f, call: {to: g}}
`), 0o644))
	_, err := registry.Load(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "`files` has only excludes")
	assert.Contains(t, err.Error(), "`!` needs a pattern after it")
}
