package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/driver"
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

// TestSuppressionForms checks the file and block forms of a suppression
// in Go and in each tree-sitter language: what they cover is suppressed,
// the function after a block is still reported, and a block or file
// directive that suppresses nothing is reported.
func TestSuppressionForms(t *testing.T) {
	// Each language's source: flush declared, then a, b inside a block,
	// c after it.
	block := func(decl, fn string) string {
		return decl + "//guardlint:ignore-begin nf the doubles below flush elsewhere\n" + fn + "a" + "\n" + fn + "b" + "\n//guardlint:ignore-end nf\n" + fn + "c" + "\n"
	}
	cfn := "void flush();\n"
	files := map[string]string{
		"go.mod":        "module example.com/sup\n\ngo 1.22\n",
		"p/p.go":        "package p\n\nfunc flush() {}\n\n//guardlint:ignore-begin nf the doubles below flush elsewhere\nfunc a() {}\n\nfunc b() {}\n\n//guardlint:ignore-end nf\n\nfunc c() {}\n",
		"p/gen.go":      "//guardlint:ignore-file nf generated doubles\n\npackage p\n\nfunc d() {}\n",
		"src/x.c":       block(cfn, "void ") + "",
		"src/x.cc":      block(cfn, "void "),
		"src/x.cu":      block(cfn, "__device__ void "),
		"src/x.metal":   block(cfn, "void "),
		"src/x.rs":      block("fn flush() {}\n", "fn "),
		"src/gen.cc":    "//guardlint:ignore-file nf generated doubles\nvoid flush();\nvoid d() {}\n",
		"src/unused.cc": "//guardlint:ignore-file nf nothing fails here\nvoid flush();\nvoid e() { flush(); }\n",
	}
	// Rust functions need bodies; the others are written with them above.
	for _, name := range []string{"src/x.c", "src/x.cc", "src/x.cu", "src/x.metal", "src/x.rs"} {
		files[name] = strings.NewReplacer("a\n", "a() {}\n", "b\n", "b() {}\n", "c\n", "c() {}\n").Replace(files[name])
	}
	yaml := "version: 1\npackage: ./p\ninvariants:\n  - {id: nf, why: w, functions: [a, b, c, d], call: {to: flush}}\n"
	for _, lang := range []string{"c", "cpp", "cuda", "metal", "rust"} {
		ext := map[string]string{"c": "c", "cpp": "cc", "cuda": "cu", "metal": "metal", "rust": "rs"}[lang]
		fns := "[a, b, c]"
		if lang == "cpp" {
			fns = "[a, b, c, d, e]"
		}
		glob := "src/*." + ext
		yaml += "  - {id: nf-" + lang + ", why: w, lang: " + lang + ", files: " + glob + ", functions: " + fns + ", call: {to: flush}}\n"
		for _, name := range []string{"src/x." + ext, "src/gen.cc", "src/unused.cc"} {
			if content, ok := files[name]; ok && strings.HasSuffix(name, "."+ext) {
				files[name] = strings.ReplaceAll(content, " nf ", " nf-"+lang+" ")
				files[name] = strings.ReplaceAll(files[name], "ignore-end nf\n", "ignore-end nf-"+lang+"\n")
			}
		}
	}
	files["guardlint.yaml"] = yaml
	dir := userRepo(t, files)
	code, out, errOut := run(t, noEnv, "-C", dir)
	assert.Equal(t, ExitFindings, code, errOut)
	got := strings.Split(strings.TrimSpace(out), "\n")
	var reported []string
	for _, line := range got {
		file, _, _ := strings.Cut(line, ":")
		msg := line[strings.Index(line, ": ")+2:]
		reported = append(reported, file+" "+strings.SplitN(msg, " must", 2)[0])
	}
	assert.ElementsMatch(t, []string{
		"p/p.go invariant nf: p.c",
		"src/x.c invariant nf-c: c",
		"src/x.cc invariant nf-cpp: c",
		"src/x.cu invariant nf-cuda: c",
		"src/x.metal invariant nf-metal: c",
		"src/x.rs invariant nf-rust: c",
		"src/unused.cc guardlint:ignore-file nf-cpp suppresses nothing in this file",
	}, reported, out)
}

// gitRepo makes a userRepo a git repository with one commit of its files.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		writeRepoFile(t, dir, name, content)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	return dir
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

// adoptFiles is a C++ tree with two findings (a and b) and a function
// that holds the invariant (c).
var adoptFiles = map[string]string{
	"src/x.cc":       "void flush();\nvoid a() {}\nvoid b() {}\nvoid c() { flush(); }\n",
	"guardlint.yaml": "version: 1\ninvariants:\n  - {id: nf, why: w, lang: cpp, files: src/*.cc, functions: [a, b, c], call: {to: flush}}\n",
}

// TestBaseline checks the baseline's life: written (the run passes),
// rerun clean after lines shift, a new finding fails while the old ones
// stay baselined, a fixed one is reported and -write-baseline with
// -baseline shrinks the file without taking in the new one.
func TestBaseline(t *testing.T) {
	dir := gitRepo(t, adoptFiles)
	src := filepath.Join(dir, "src/x.cc")
	code, out, errOut := run(t, noEnv, "-C", dir, "-write-baseline", "baseline.json")
	assert.Equal(t, ExitClean, code, errOut)
	assert.Equal(t, 2, strings.Count(out, "baselined: src/x.cc:"), out)
	assert.Contains(t, errOut, "baseline written with 2 findings")
	b, err := driver.ReadBaseline(filepath.Join(dir, "baseline.json"))
	require.NoError(t, err)
	require.Len(t, b.Findings, 2)

	// Lines shift above the findings: still baselined.
	writeRepoFile(t, dir, "src/x.cc", "// the encoder's helpers\n\n"+adoptFiles["src/x.cc"])
	code, _, errOut = run(t, noEnv, "-C", dir, "-baseline", "baseline.json")
	assert.Equal(t, ExitClean, code, errOut)
	assert.Contains(t, errOut, "0 new, 2 baselined")

	// A new violation fails; the baselined ones do not.
	require.NoError(t, os.WriteFile(src, []byte("void flush();\nvoid a() {}\nvoid b() {}\nvoid c() {}\n"), 0o644))
	code, out, errOut = run(t, noEnv, "-C", dir, "-baseline", "baseline.json", "-json")
	assert.Equal(t, ExitFindings, code, errOut)
	assert.Equal(t, 1, strings.Count(out, `"status": "new"`), out)
	assert.Equal(t, 2, strings.Count(out, `"status": "baselined"`), out)

	// a is fixed: reported, and the rewritten baseline keeps b only.
	require.NoError(t, os.WriteFile(src, []byte("void flush();\nvoid a() { flush(); }\nvoid b() {}\nvoid c() {}\n"), 0o644))
	code, _, errOut = run(t, noEnv, "-C", dir, "-baseline", "baseline.json", "-write-baseline", "baseline.json")
	assert.Equal(t, ExitFindings, code, "c is still new")
	assert.Contains(t, errOut, "fixed since the baseline: src/x.cc:2: invariant nf: a must call flush")
	b, err = driver.ReadBaseline(filepath.Join(dir, "baseline.json"))
	require.NoError(t, err)
	require.Len(t, b.Findings, 1)
	assert.Contains(t, b.Findings[0].Message, "invariant nf: b must call")

	code, _, errOut = run(t, noEnv, "-C", dir, "-baseline", "missing.json")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "baseline "+filepath.Join(dir, "missing.json")+" does not exist")
}

// TestNewFromRev checks that only findings where a change since a
// revision lies fail: in Go, the function declaration that holds the
// finding; in another language, the file. An untracked file counts as
// changed, and an invariant that cannot be verified fails whatever
// changed.
func TestNewFromRev(t *testing.T) {
	files := map[string]string{
		"go.mod":         "module example.com/nfr\n\ngo 1.22\n",
		"p/p.go":         "package p\n\nfunc flush() {}\n\nfunc a() {}\n\nfunc b() {}\n\nfunc c() {\n\tflush()\n}\n",
		"src/x.cc":       adoptFiles["src/x.cc"],
		"guardlint.yaml": adoptFiles["guardlint.yaml"] + "  - {id: go-nf, why: w, functions: [./p.a, ./p.b, ./p.c], call: {to: ./p.flush}}\n",
	}
	dir := gitRepo(t, files)
	code, _, errOut := run(t, noEnv, "-C", dir, "-new-from-rev", "HEAD")
	assert.Equal(t, ExitClean, code, "nothing changed: the old findings pass; %s", errOut)
	assert.Contains(t, errOut, "0 new, 4 on unchanged lines")

	// The call in c is deleted: c's finding (at its name, a line the
	// change did not touch) is new, a's and b's are not.
	writeRepoFile(t, dir, "p/p.go", "package p\n\nfunc flush() {}\n\nfunc a() {}\n\nfunc b() {}\n\nfunc c() {\n}\n")
	code, out, _ := run(t, noEnv, "-C", dir, "-new-from-rev", "HEAD")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "\np/p.go:9:6: invariant go-nf: p.c must call p.flush", out)
	assert.Contains(t, out, "unchanged: p/p.go:5:6:")
	assert.Contains(t, out, "unchanged: src/x.cc:2:6:", "x.cc did not change")
	code, out, _ = run(t, noEnv, "-C", dir, "-new-from-rev", "HEAD", "-sarif")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, `"baselineState": "new"`)
	assert.Contains(t, out, `"baselineState": "unchanged"`)
	git(t, dir, "checkout", "-q", "--", "p/p.go")

	// A C++ file that changed: its findings are all new (the file is the
	// unit outside Go).
	writeRepoFile(t, dir, "src/x.cc", "// edited\n"+adoptFiles["src/x.cc"])
	code, out, _ = run(t, noEnv, "-C", dir, "-new-from-rev", "HEAD")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "\nsrc/x.cc:3:6: invariant nf: a must call flush")
	git(t, dir, "checkout", "-q", "--", "src/x.cc")

	writeRepoFile(t, dir, "src/y.cc", "void flush();\nvoid a2() {}\n")
	writeRepoFile(t, dir, "guardlint.yaml", files["guardlint.yaml"]+"  - {id: nf2, why: w, lang: cpp, files: src/y.cc, function: a2, call: {to: flush}}\n  - {id: gone, why: w, lang: cpp, files: src/x.cc, function: renamed, call: {to: flush}}\n")
	git(t, dir, "add", "guardlint.yaml")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "more invariants")
	code, out, _ = run(t, noEnv, "-C", dir, "-new-from-rev", "HEAD")
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "\nsrc/y.cc:2:6: invariant nf2:", "an untracked file is new")
	assert.True(t, strings.HasPrefix(out, "guardlint.yaml:6:"), "cannot verify is never on an unchanged line: %s", out)

	code, _, errOut = run(t, noEnv, "-C", dir, "-new-from-rev", "no-such-rev")
	assert.Equal(t, ExitConfig, code)
	assert.Contains(t, errOut, "-new-from-rev no-such-rev: not a revision")
}
