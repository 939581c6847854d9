package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userRepo writes files (slash-separated names) under a new temporary
// directory with a .git entry, outside this repository, and returns it.
func userRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	for name, content := range files {
		writeRepoFile(t, dir, name, content)
	}
	return dir
}

// writeRepoFile writes one file of a userRepo.
func writeRepoFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// TestTextPathsInRepository checks that a finding in a file above the
// directory the command runs in, inside the repository, is printed with
// "../", not with the machine's absolute path.
func TestTextPathsInRepository(t *testing.T) {
	dir := userRepo(t, map[string]string{
		"src/enc.cc": "void get() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: gone, why: w, lang: cpp, files: src/*.cc, function: renamed, call: {to: retain}}
`,
	})
	code, out, errOut := run(t, noEnv, "-C", filepath.Join(dir, "src"))
	assert.Equal(t, ExitFindings, code, errOut)
	assert.True(t, strings.HasPrefix(out, "../guardlint.yaml:3:"), out)
	assert.NotContains(t, out, dir)
}
