package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
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
