package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFixCommands checks that `guardlint prove -revert` and `guardlint
// suggest` reach the fix package, and refuse what is not a revision with
// the configuration's exit status. Their work is tested in package fix.
func TestFixCommands(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	code, _, errOut := run(t, noEnv, "prove", "-C", root, "-revert", "no-such-commit", "./...")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `revision "no-such-commit" is not a commit of this repository`)

	code, _, errOut = run(t, noEnv, "suggest", "-C", root)
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "give the commit or range to suggest invariants for")

	code, _, errOut = run(t, noEnv, "suggest", "-C", root, "no-such-commit")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `revision "no-such-commit" is not a commit of this repository`)
}

// TestFixCommandsTakeTags runs both commands on a repository whose fix
// adds the helper's call in the file the tag selects: without -tags,
// suggest proposes nothing from it and the invariant does not hold; with
// it, suggest proposes the call and prove --revert catches the revert.
func TestFixCommandsTakeTags(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=dev@example.com", "-c", "user.name=dev", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	git("init", "-q")
	write("go.mod", "module example.com/tags\n\ngo 1.22\n")
	write("p/p.go", "package p\n\nfunc helper() {}\n")
	write("p/run.go", "//go:build !fast\n\npackage p\n\nfunc Run() {}\n")
	write("p/runfast.go", "//go:build fast\n\npackage p\n\nfunc Run() {\n}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "start")
	write("p/runfast.go", "//go:build fast\n\npackage p\n\nfunc Run() {\n\thelper()\n}\n")
	git("commit", "-q", "-am", "the fast Run helps too")

	code, out, errOut := run(t, noEnv, "suggest", "-C", dir, "HEAD")
	assert.Equal(t, ExitFindings, code, out+errOut)
	code, out, errOut = run(t, noEnv, "suggest", "-C", dir, "-tags", "fast", "HEAD")
	assert.Equal(t, ExitClean, code, out+errOut)
	assert.Contains(t, out, "  - id: Run-calls-helper\n")

	write("guardlint.yaml", "version: 1\ninvariants:\n  - {id: run-helps, why: w, function: ./p.Run, call: {to: ./p.helper}}\n")
	code, out, errOut = run(t, noEnv, "prove", "-C", dir, "-revert", "HEAD", "./...")
	assert.Equal(t, ExitFindings, code, out+errOut)
	assert.Contains(t, out, "p/run.go:5:6: invariant run-helps:")
	code, out, errOut = run(t, noEnv, "prove", "-C", dir, "-tags", "fast", "-revert", "HEAD", "./...")
	assert.Equal(t, ExitClean, code, out+errOut)
	assert.Contains(t, out, "caught by 1 invariant: run-helps")
}
