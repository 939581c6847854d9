package prove

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noEnv is an environment without $GUARDLINT_CONFIG.
func noEnv(string) string { return "" }

func TestMainExitCodes(t *testing.T) {
	for _, tc := range []struct {
		dir, config string
		want        int
		out         string
	}{
		{mod, "proved.yaml", exitProved, "3 invariants"},
		{mod, "weak.yaml", exitUnproved, "survived"},
		{mod, "vacuous.yaml", exitUnproved, "vacuous"},
		{mod, "missing.yaml", exitConfig, ""},
		{filepath.Join("testdata", "typeerr"), "guardlint.yaml", exitFailure, ""},
	} {
		var stdout, stderr bytes.Buffer
		got := Main([]string{"-C", tc.dir, "-config", tc.config, "./..."}, &stdout, &stderr, noEnv)
		assert.Equal(t, tc.want, got, "%s %s: %s%s", tc.dir, tc.config, stdout.String(), stderr.String())
		assert.Contains(t, stdout.String(), tc.out)
	}
}

func TestMainShow(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", mod, "-config", "proved.yaml", "-show", "encoder-retained.CommandBuffer.getOrCreateEncoder.block-comment"}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, got, stderr.String())
	assert.Contains(t, stdout.String(), "/* enc.retain() */")
	assert.True(t, strings.HasPrefix(stdout.String(), "encoder-retained.CommandBuffer.getOrCreateEncoder.block-comment: killed"), stdout.String())
}

// TestMainNativeInvariants proves in a C tree without a Go module: an
// invariant that does not hold on the unmutated code fails the run, as a
// Go one does; one that holds, for which no mutant generator exists yet,
// is reported as not proved without failing it.
func TestMainNativeInvariants(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("guardlint.yaml", "version: 1\ninvariants:\n  - {id: flushed, why: the tail is lost, lang: c, files: buf.c, function: buf_release, call: {to: buf_flush}}\n")
	write("buf.c", "void buf_flush(void);\nvoid buf_release(void) {\n  /* buf_flush(); */\n}\n")
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", dir}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitUnproved, got, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "failing   flushed: buf.c:2:6: invariant flushed: buf_release must call buf_flush")

	write("buf.c", "void buf_flush(void);\nvoid buf_release(void) {\n  buf_flush();\n}\n")
	stdout.Reset()
	got = Main([]string{"-C", dir}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, got, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "skipped   flushed: no mutant generator for c yet")
}
