package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseBudget runs guardlint on a Rust file that tree-sitter never
// finishes parsing: the run ends, with the usual exit status for a
// finding, and the file is reported at the invariant that needed it.
func TestParseBudget(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("go.mod", "module example.com/loops\n\ngo 1.22\n")
	write("loops.rs", "fn A({#[A(())]!A/[0!0];(||A(A()!#0();;A")
	write("guardlint.yaml", `version: 1
invariants:
  - id: a-calls-b
    why: a must call b
    lang: rust
    files: loops.rs
    function: A
    call: {to: b}
`)
	code, out, errOut := run(t, noEnv, "-C", dir, "-parse-budget", "50ms")
	assert.Equal(t, ExitFindings, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 1, out)
	assert.Equal(t, "guardlint.yaml:7:15: invariant a-calls-b: cannot verify: the parser did not finish "+
		"loops.rs within its budget (50ms for 39 bytes) (why: a must call b)", lines[0])
}

func TestParseBudgetMustBePositive(t *testing.T) {
	code, _, errOut := run(t, noEnv, "-C", "testdata/clean", "-parse-budget", "0s")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "guardlint: -parse-budget must be positive, not 0s")
}
