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
// Go one does; one that holds is mutated and proved.
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
	assert.True(t, hasLine(stdout.String(), "flushed", "buf_release", "K K K K K K K V K"), stdout.String())
	assert.Contains(t, stdout.String(), "1 invariants, 9 mutants: 8 killed, 0 survived, 1 void")
}

// TestMainTags proves an invariant whose target calls the helper, of a
// package imported only there, in the file the tag selects: without
// -tags the call is missing and the invariant fails; with it, its reverts
// are made and checked in that file, the fast way and through a full
// load.
func TestMainTags(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":         "module example.com/tags\n\ngo 1.22\n",
		"q/q.go":         "package q\n\nfunc Helper() {}\n",
		"p/run.go":       "//go:build !fast\n\npackage p\n\nfunc Run() {}\n",
		"p/runfast.go":   "//go:build fast\n\npackage p\n\nimport \"example.com/tags/q\"\n\nfunc Run() {\n\tq.Helper()\n}\n",
		"guardlint.yaml": "version: 1\ninvariants:\n  - {id: run-helps, why: w, function: ./p.Run, call: {to: ./q.Helper}}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", dir, "./p"}, &stdout, &stderr, noEnv)
	assert.NotEqual(t, exitProved, got, "%s%s", stdout.String(), stderr.String())
	for _, exact := range []string{"-exact=false", "-exact"} {
		stdout.Reset()
		got = Main([]string{"-C", dir, "-tags", "fast", exact, "./p"}, &stdout, &stderr, noEnv)
		assert.Equal(t, exitProved, got, "%s: %s%s", exact, stdout.String(), stderr.String())
		assert.Contains(t, stdout.String(), "1 invariants, ", exact)
		assert.Contains(t, stdout.String(), "5 killed, 0 survived", exact)
	}
}
