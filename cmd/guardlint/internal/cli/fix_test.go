package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
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
	dir := ruletest.GitRepo(t, map[string]string{
		"go.mod":       "module example.com/tags\n\ngo 1.22\n",
		"p/p.go":       "package p\n\nfunc helper() {}\n",
		"p/run.go":     "//go:build !fast\n\npackage p\n\nfunc Run() {}\n",
		"p/runfast.go": "//go:build fast\n\npackage p\n\nfunc Run() {\n}\n",
	}, map[string]string{ // the fast Run helps too
		"p/runfast.go": "//go:build fast\n\npackage p\n\nfunc Run() {\n\thelper()\n}\n",
	})

	code, out, errOut := run(t, noEnv, "suggest", "-C", dir, "HEAD")
	assert.Equal(t, ExitFindings, code, out+errOut)
	code, out, errOut = run(t, noEnv, "suggest", "-C", dir, "-tags", "fast", "HEAD")
	assert.Equal(t, ExitClean, code, out+errOut)
	assert.Contains(t, out, "  - id: Run-calls-helper\n")

	config := "version: 1\ninvariants:\n  - {id: run-helps, why: w, function: ./p.Run, call: {to: ./p.helper}}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte(config), 0o644))
	code, out, errOut = run(t, noEnv, "prove", "-C", dir, "-revert", "HEAD", "./...")
	assert.Equal(t, ExitFindings, code, out+errOut)
	assert.Contains(t, out, "p/run.go:5:6: invariant run-helps:")
	code, out, errOut = run(t, noEnv, "prove", "-C", dir, "-tags", "fast", "-revert", "HEAD", "./...")
	assert.Equal(t, ExitClean, code, out+errOut)
	assert.Contains(t, out, "caught by 1 invariant: run-helps")
}
