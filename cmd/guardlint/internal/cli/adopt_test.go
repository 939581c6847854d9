package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userRepo writes files (slash-separated names) under a new temporary
// directory with a .git entry, outside this repository, and returns it.
func userRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	for name, content := range files {
		writeRepoFile(t, dir, name, content)
	}
	return dir
}

// writeRepoFile writes one file of a userRepo.
func writeRepoFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// TestTextPathsInRepository checks that a finding in a file above the
// directory the command runs in, inside the repository, is printed with
// "../", not with the machine's absolute path.
func TestTextPathsInRepository(t *testing.T) {
	dir := userRepo(t, map[string]string{
		"src/enc.cc": "void get() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: gone, why: w, lang: cpp, files: src/*.cc, function: renamed, call: {to: retain}}
`,
	})
	code, out, errOut := run(t, noEnv, "-C", filepath.Join(dir, "src"))
	assert.Equal(t, ExitFindings, code, errOut)
	assert.True(t, strings.HasPrefix(out, "../guardlint.yaml:3:"), out)
	assert.NotContains(t, out, dir)
}

// severityRepo has four C++ invariants that all fail: an error, a
// warning, a note, and a disabled one.
func severityRepo(t *testing.T) string {
	t.Helper()
	return userRepo(t, map[string]string{
		"src/a.cc": "void flush();\nvoid err() {}\nvoid warn() {}\nvoid note() {}\nvoid off() {}\n",
		"guardlint.yaml": `version: 1
invariants:
  - {id: gpu-err, why: w, lang: cpp, files: src/*.cc, function: err, call: {to: flush}}
  - {id: gpu-warn, why: w, severity: warning, lang: cpp, files: src/*.cc, function: warn, call: {to: flush}}
  - {id: cpu-note, why: w, severity: note, lang: cpp, files: src/*.cc, function: note, call: {to: flush}}
  - {id: cpu-off, why: w, enabled: false, lang: cpp, files: src/*.cc, function: off, call: {to: flush}}
`,
	})
}

// TestSeverities checks the severities in the text, JSON and SARIF
// outputs, -fail-on, and that a disabled invariant is not checked.
func TestSeverities(t *testing.T) {
	dir := severityRepo(t)
	code, out, errOut := run(t, noEnv, "-C", dir)
	assert.Equal(t, ExitFindings, code, "an error fails the run")
	assert.Equal(t, []string{
		"src/a.cc:2:6: invariant gpu-err: err must call flush, and contains no live call of it (why: w)",
		"src/a.cc:3:6: warning: invariant gpu-warn: warn must call flush, and contains no live call of it (why: w)",
		"src/a.cc:4:6: note: invariant cpu-note: note must call flush, and contains no live call of it (why: w)",
	}, strings.Split(strings.TrimSpace(out), "\n"))
	assert.Contains(t, errOut, "3 invariants checked, 3 findings (1 error, 1 warning, 1 note); 1 invariant disabled or deselected")

	code, out, _ = run(t, noEnv, "-C", dir, "-json")
	assert.Equal(t, ExitFindings, code)
	for _, want := range []string{`"severity": "error"`, `"severity": "warning"`, `"severity": "note"`} {
		assert.Contains(t, out, want)
	}
	code, out, _ = run(t, noEnv, "-C", dir, "-sarif")
	assert.Equal(t, ExitFindings, code)
	for _, want := range []string{`"level": "error"`, `"level": "warning"`, `"level": "note"`} {
		assert.Contains(t, out, want)
	}

	code, _, _ = run(t, noEnv, "-C", dir, "-skip", "gpu-err")
	assert.Equal(t, ExitClean, code, "a warning passes by default")
	code, _, _ = run(t, noEnv, "-C", dir, "-skip", "gpu-err", "-fail-on", "warning")
	assert.Equal(t, ExitFindings, code, "-fail-on warning fails on a warning")
	code, _, _ = run(t, noEnv, "-C", dir, "-only", "cpu-*", "-fail-on", "warning")
	assert.Equal(t, ExitClean, code, "a note passes -fail-on warning")
	code, _, _ = run(t, noEnv, "-C", dir, "-only", "cpu-*", "-fail-on", "note")
	assert.Equal(t, ExitFindings, code)
	code, _, errOut = run(t, noEnv, "-C", dir, "-fail-on", "fatal")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `severity "fatal": want error, warning, note`)
}

// TestSelection checks -only and -skip by id and glob, and that a
// pattern that matches nothing is an error, not a quiet pass.
func TestSelection(t *testing.T) {
	dir := severityRepo(t)
	_, out, errOut := run(t, noEnv, "-C", dir, "-only", "gpu-*", "-skip", "gpu-warn")
	assert.Equal(t, 1, strings.Count(out, "\n"), out)
	assert.Contains(t, out, "gpu-err")
	assert.Contains(t, errOut, "1 invariant checked, 1 finding; 3 invariants disabled or deselected")
	_, out, _ = run(t, noEnv, "-C", dir, "-skip", "gpu-err,cpu-note")
	assert.Equal(t, 1, strings.Count(out, "\n"), out)
	assert.Contains(t, out, "gpu-warn")
	code, _, errOut := run(t, noEnv, "-C", dir, "-only", "gpu-eror")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `-only "gpu-eror" matches no invariant`)
	code, _, errOut = run(t, noEnv, "-C", dir, "-skip", "[")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, `-skip "["`)
	// A disabled invariant can be selected by name, and is still not run.
	code, out, _ = run(t, noEnv, "-C", dir, "-only", "cpu-off")
	assert.Equal(t, ExitClean, code)
	assert.Empty(t, out)
}
