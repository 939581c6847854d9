package driver

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessagesRelativeToRoot checks that a message quoting a file (the
// place where a target does not parse) names it relative to the
// repository root, in the text, the JSON and the SARIF output, even when
// the run starts in a subdirectory.
func TestMessagesRelativeToRoot(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"src/enc.cc": "struct Encoder { void retain(); };\nvoid get(Encoder* enc) {\n  enc->retain( ;\n}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: cc-retain, why: encoders come at +0, lang: cpp, files: src/*.cc, function: get, call: {to: enc->retain}}
`,
	})
	res, got := runIn(t, filepath.Join(dir, "src"))
	require.Len(t, got, 1)
	assert.Contains(t, res.Findings[0].Message, "at src/enc.cc:3:")
	assert.NotContains(t, res.Findings[0].Message, dir)
	set, err := Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	rep := Report{Root: dir, Set: set, Findings: res.Findings}
	var js, sarif bytes.Buffer
	require.NoError(t, JSON(&js, rep))
	require.NoError(t, SARIF(&sarif, rep, "test"))
	assert.NotContains(t, js.String(), dir)
	assert.NotContains(t, sarif.String(), dir)
	assert.Contains(t, js.String(), "at src/enc.cc:3:")
}

// TestRelativeMessagesLeavesOtherPaths checks that only paths under the
// root are rewritten, and that a root of "/" rewrites nothing.
func TestRelativeMessagesLeavesOtherPaths(t *testing.T) {
	fs := []core.Finding{{Message: "at /repo/a.cc:3 and /other/b.cc:4 and /repository/c.cc:5"}}
	RelativeMessages("/repo", fs)
	assert.Equal(t, "at a.cc:3 and /other/b.cc:4 and /repository/c.cc:5", fs[0].Message)
	fs = []core.Finding{{Message: "at /repo/a.cc:3"}}
	RelativeMessages("/", fs)
	assert.Equal(t, "at /repo/a.cc:3", fs[0].Message)
}
