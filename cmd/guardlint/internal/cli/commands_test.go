package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelp checks that -h and `guardlint help` list every subcommand, and
// that help on one command prints its flags.
func TestHelp(t *testing.T) {
	code, out, errOut := run(t, noEnv, "help")
	assert.Equal(t, ExitClean, code, errOut)
	code, _, usageOut := run(t, noEnv, "-h")
	assert.Equal(t, ExitClean, code)
	assert.Equal(t, out, usageOut, "help prints the usage -h prints, on stdout")
	for _, c := range []string{"prove", "list", "version", "help"} {
		assert.Contains(t, out, "\n  "+c+" ", c)
	}
	assert.Contains(t, out, "-tags tags")
	assert.Contains(t, out, "Exit status: 0")

	code, out, _ = run(t, noEnv, "help", "list")
	assert.Equal(t, ExitClean, code)
	assert.Contains(t, out, "usage: guardlint list")
	code, out, _ = run(t, noEnv, "help", "prove")
	assert.Equal(t, ExitClean, code)
	assert.Contains(t, out, "usage: guardlint prove")
	code, _, errOut = run(t, noEnv, "help", "lst")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `unknown topic "lst" (a command or a rule kind); did you mean list?`)
}

// TestHelpKinds checks that the usage lists every rule kind and language,
// Metal among them, and that help on a kind prints the kind's own
// documentation, with did-you-mean over kinds and commands alike.
func TestHelpKinds(t *testing.T) {
	_, out, _ := run(t, noEnv, "help")
	for _, k := range kindNames() {
		assert.Contains(t, out, "\n  "+k+" ", k)
	}
	assert.Contains(t, out, "go, c, cpp, cuda, rust, metal")
	for _, k := range kindNames() {
		code, out, errOut := run(t, noEnv, "help", k)
		require.Equal(t, ExitClean, code, errOut)
		assert.Equal(t, "kind "+k+": "+kindDoc(kindByName(k)), strings.SplitN(out, "\n\nLanguages: ", 2)[0], "help %s prints the kind's Doc", k)
		assert.Contains(t, out, "Examples")
	}
	_, out, _ = run(t, noEnv, "help", "hold")
	assert.Contains(t, out, "kind hold: check that a lock is held for a function's whole body")
	code, _, errOut := run(t, noEnv, "help", "hodl")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "did you mean hold?")
	_, _, errOut = run(t, noEnv, "help", "lock-order")
	assert.Contains(t, errOut, "did you mean lock_order?")
}

// TestVersion checks `guardlint version` and -version.
func TestVersion(t *testing.T) {
	code, out, _ := run(t, noEnv, "version")
	assert.Equal(t, ExitClean, code)
	assert.Regexp(t, `^guardlint \S+ \(go1\.\d+.* \w+/\w+\)\n$`, out)
	code, out2, _ := run(t, noEnv, "-version")
	assert.Equal(t, ExitClean, code)
	assert.Equal(t, out, out2)
}

// TestDidYouMean checks the suggestions for a misspelt flag or command,
// and that a package pattern is never taken for a command.
func TestDidYouMean(t *testing.T) {
	code, _, errOut := run(t, noEnv, "-jsno")
	assert.Equal(t, ExitConfig, code)
	assert.Equal(t, "guardlint: flag provided but not defined: -jsno; did you mean -json?\nRun 'guardlint -h' for usage.\n", errOut)
	code, _, errOut = run(t, noEnv, "-nothing-like-it")
	assert.Equal(t, ExitConfig, code)
	assert.Equal(t, "guardlint: flag provided but not defined: -nothing-like-it\nRun 'guardlint -h' for usage.\n", errOut)
	code, _, errOut = run(t, noEnv, "prove", "-jbos", "2")
	assert.Equal(t, ExitConfig, code)
	assert.Equal(t, "guardlint prove: flag provided but not defined: -jbos; did you mean -jobs?\nRun 'guardlint prove -h' for usage.\n", errOut)
	code, _, errOut = run(t, noEnv, "list", "-josn")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "did you mean -json?")
	for arg, want := range map[string]string{"prvoe": "prove", "Prove": "prove", "lsit": "list", "vresion": "version"} {
		code, _, errOut = run(t, noEnv, arg)
		assert.Equal(t, ExitConfig, code, arg)
		assert.Contains(t, errOut, "unknown command \""+arg+"\"; did you mean "+want+"?", arg)
	}
	// A directory of that name is a package pattern.
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "lst"), 0o755))
	t.Chdir(dir)
	assert.Empty(t, unknownCommand("lst"))
	assert.Empty(t, unknownCommand("./lst"))
	assert.Empty(t, unknownCommand("example.com/lst"))
}

// TestSummaryLine checks the line on stderr after a check, on success
// too, and its count of invariants a partial run leaves out.
func TestSummaryLine(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/clean")
	assert.Equal(t, ExitClean, code)
	assert.Empty(t, out)
	assert.Equal(t, "guardlint: 1 invariant checked, 0 findings\n", errOut)

	code, _, errOut = run(t, noEnv, "-C", "testdata/dirty", "./...")
	assert.Equal(t, ExitFindings, code)
	// gone's package does not exist: a finding, and not checked.
	assert.Equal(t, "guardlint: 2 invariants checked, 2 findings\n", errOut)

	code, out, errOut = run(t, noEnv, "-C", "../../../../analyzers/kinds/requires/testdata/module", "./other/...")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "cannot verify: none of the 1 invariants of guardlint.yaml concerns a package of ./other/...")
	assert.Equal(t, "guardlint: 0 invariants checked, 1 finding; 1 invariant outside ./other/... not checked\n", errOut)
}

// TestList checks `guardlint list`, as text and as JSON.
func TestList(t *testing.T) {
	code, out, errOut := run(t, noEnv, "list", "-C", "testdata/dirty")
	assert.Equal(t, ExitClean, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	assert.Regexp(t, `^ID\s+KIND\s+TARGET\s+DECLARED$`, lines[0])
	assert.Regexp(t, `^encoder-retained\s+call\s+\(\*p\.CommandBuffer\)\.getOrCreateEncoder\s+guardlint\.yaml:4:5$`, lines[1])
	assert.Regexp(t, `^eval-locked\s+hold\s+p\.Eval\s+guardlint\.yaml:9:5$`, lines[2])
	assert.Regexp(t, `^gone\s+call\s+q\.F\s+guardlint\.yaml:13:5$`, lines[3])

	code, out, errOut = run(t, noEnv, "list", "-C", "testdata/dirty", "-json")
	assert.Equal(t, ExitClean, code, errOut)
	var entries []listEntry
	require.NoError(t, json.Unmarshal([]byte(out), &entries), out)
	require.Len(t, entries, 3)
	assert.Equal(t, listEntry{
		ID: "encoder-retained", Kind: "call", Lang: "go",
		Target:   "(*p.CommandBuffer).getOrCreateEncoder",
		Summary:  "(*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain",
		Why:      "the pool hands encoders out at +0",
		Ref:      "https://example.com/adr/1",
		Declared: "guardlint.yaml:4:5",
	}, entries[0])

	code, _, errOut = run(t, noEnv, "list", "-C", "testdata/broken")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `guardlint.yaml:7:5: invariant: unknown key "colour"`)
	code, _, errOut = run(t, noEnv, "list", "./...")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "list takes flags only")
}

// TestTagsFlag checks that -tags reaches package loading: the guarded
// call is missing only from the file the tag selects.
func TestTagsFlag(t *testing.T) {
	dir := noConfigRepo(t)
	for name, content := range map[string]string{
		"p/run.go":       "//go:build !fast\n\npackage p\n\nfunc helper() {}\n\nfunc Run() { helper() }\n",
		"p/runfast.go":   "//go:build fast\n\npackage p\n\nfunc helper() {}\n\nfunc Run() {}\n",
		"guardlint.yaml": "version: 1\ninvariants:\n  - {id: run-helps, why: w, function: ./p.Run, call: {to: ./p.helper}}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	code, out, errOut := run(t, noEnv, "-C", dir)
	assert.Equal(t, ExitClean, code, out+errOut)
	code, out, _ = run(t, noEnv, "-C", dir, "-tags", "fast")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "p/runfast.go:7:6: invariant run-helps:")
}

// TestVersionOf checks the version read from the build information: a
// module version wins; a build from a checkout without one names its
// commit and whether the tree had changes.
func TestVersionOf(t *testing.T) {
	info := func(version string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/guardlint/guardlint", Version: version}, Settings: settings}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	assert.Equal(t, "v1.2.3", versionOf(info("v1.2.3", rev)))
	assert.Equal(t, "v0.0.0-20261201085445-d92b42c76d2a+dirty", versionOf(info("v0.0.0-20261201085445-d92b42c76d2a+dirty", rev, dirty)))
	assert.Equal(t, "devel-0123456789ab", versionOf(info("(devel)", rev)))
	assert.Equal(t, "devel-0123456789ab-modified", versionOf(info("(devel)", rev, dirty)))
	assert.Equal(t, "devel", versionOf(info("(devel)")))
	assert.Equal(t, "devel", versionOf(nil))

	assert.Equal(t, "1.2.3", sarifVersionOf("v1.2.3"))
	assert.Equal(t, "0.0.0-devel-0123456789ab", sarifVersionOf("devel-0123456789ab"))
}
