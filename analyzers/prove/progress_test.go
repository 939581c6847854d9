package prove

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProgress checks the progress line: it counts every mutant checked
// and ends the line after the last; a run without a terminal prints none.
func TestProgress(t *testing.T) {
	var progress bytes.Buffer
	rep, _, _ := proveFile(t, mod, "proved.yaml", Options{Progress: &progress})
	checked := 0
	for _, r := range rep.Mutants() {
		if r.Verdict != Void || r.Mutant.Void == "" {
			checked++
		}
	}
	require.Positive(t, checked)
	out := progress.String()
	assert.Contains(t, out, fmt.Sprintf("guardlint prove: %d/%d mutants, ", checked, checked))
	assert.True(t, strings.HasSuffix(out, "elapsed\n"), "the last line ends: %q", out)

	var stdout, stderr bytes.Buffer
	Main([]string{"-C", mod, "-config", "proved.yaml", "./..."}, &stdout, &stderr, noEnv)
	assert.NotContains(t, stderr.String(), "mutants,", "stderr is no terminal here")
}

// TestIsTerminal checks that a file and a pipe are not terminals.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, IsTerminal(f))
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.False(t, IsTerminal(w))
}
