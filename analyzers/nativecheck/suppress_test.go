package nativecheck_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuppressionErrors checks the directives that are wrong in
// themselves: no id, no reason, an unknown id (with the loaded one it
// is closest to). A directive without a
// reason suppresses nothing, so the finding stays.
func TestSuppressionErrors(t *testing.T) {
	dir := t.TempDir()
	src := "void f(void) {\n" +
		"  //guardlint:ignore\n" +
		"  //guardlint:ignore c-g\n" +
		"  //guardlint:ignore nobody some reason\n" +
		"  //guardlint:ignore c_g misspelt\n" +
		"  const char *s = \"//guardlint:ignore c-g in a string\";\n" +
		"}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.c"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "inv.yaml"), []byte(
		"version: 1\ninvariants:\n  - {id: c-g, why: w, lang: c, files: a.c, function: f, call: {to: g}}\n"), 0o644))
	set, err := registry.Load(filepath.Join(dir, "inv.yaml"))
	require.NoError(t, err)
	var got []string
	for _, f := range nativecheck.Check(set, nativecheck.Options{}) {
		got = append(got, filepath.Base(f.Pos.Filename)+":"+strconv.Itoa(f.Pos.Line)+": ["+f.ID+"] "+f.Message)
	}
	assert.Equal(t, []string{
		"a.c:1: [c-g] invariant c-g: f must call g, and contains no live call of it (why: w)",
		"a.c:2: [suppression] guardlint:ignore needs an invariant id and a reason: //guardlint:ignore <id> <reason>",
		"a.c:3: [suppression] guardlint:ignore c-g needs a reason after the id",
		"a.c:4: [suppression] guardlint:ignore names nobody, which is not a loaded invariant",
		"a.c:5: [suppression] guardlint:ignore names c_g, which is not a loaded invariant; did you mean \"c-g\"?",
	}, got)
}
