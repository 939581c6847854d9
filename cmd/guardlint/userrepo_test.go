package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The user repositories: guardlint run the way its docs say, in
// temporary git repositories outside this one that look like a user's: a
// Rust crate, a C++ tree, a repository with its Go module in a
// subdirectory, and a plain Go module. Each has one invariant and the
// guarded line in its clean and its reverted form.

// userRepo is one kind of user repository.
type userRepo struct {
	name  string
	files map[string]string // slash-separated name -> content
	// guarded is the file with the guarded line, clean the line and
	// reverted its revert; finding is what guardlint prints for it.
	guarded, clean, reverted, finding string
	// module is the directory of the Go module, "" for none.
	module string
}

// userRepos are the repositories the tests create.
var userRepos = []userRepo{
	{
		name: "rust crate",
		files: map[string]string{
			"Cargo.toml": "[package]\nname = \"encoders\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/lib.rs": "pub mod encoder;\n",
			"src/encoder.rs": `pub struct Encoder;

pub fn get_or_create(encoder: &Encoder) -> &Encoder {
    unsafe { msg_send![encoder, retain] };
    encoder
}
`,
			"guardlint.yaml": `version: 1
invariants:
  - id: encoder-retained
    why: the pool hands encoders out at +0
    lang: rust
    files: src/**/*.rs
    function: get_or_create
    call: {to: "msg_send![encoder, retain]"}
`,
		},
		guarded: "src/encoder.rs", clean: "    unsafe { msg_send![encoder, retain] };\n", reverted: "    // unsafe { msg_send![encoder, retain] };\n",
		finding: "src/encoder.rs:3:8: invariant encoder-retained: get_or_create must call msg_send![encoder, retain], and contains no live call of it",
	},
	{
		name: "c++ tree",
		files: map[string]string{
			"CMakeLists.txt":       "cmake_minimum_required(VERSION 3.20)\nproject(registry CXX)\nadd_library(registry src/registry.cc)\n",
			"include/registry.h":   "#include <mutex>\n#include <map>\n\nclass Registry {\n public:\n  void add(int key, int value);\n\n private:\n  std::mutex mu_;\n  std::map<int, int> map_;\n};\n",
			"src/registry.cc":      "#include \"registry.h\"\n\nvoid Registry::add(int key, int value) {\n  std::lock_guard<std::mutex> lock(mu_);\n  map_[key] = value;\n}\n",
			"tools/gen/README.txt": "generators\n",
			"guardlint.yaml": `version: 1
invariants:
  - id: registry-locked
    why: two threads registering at once corrupt the map
    lang: cpp
    files: [src/*.cc]
    function: Registry::add
    hold: {lock: mu_}
`,
		},
		guarded: "src/registry.cc", clean: "  std::lock_guard<std::mutex> lock(mu_);\n", reverted: "",
		finding: "src/registry.cc:3:6: invariant registry-locked: Registry::add must hold mu_ (exclusive)",
	},
	{
		name:   "go module in a subdirectory",
		module: "go",
		files: map[string]string{
			"README.md":       "# app\n",
			"native/enc.c":    "void flush(void) {}\n",
			"go/go.mod":       "module example.com/app\n\ngo 1.26\n",
			"go/pool/pool.go": goPool,
			"guardlint.yaml": `version: 1
invariants:
  - id: encoder-retained
    why: the pool hands encoders out at +0
    function: (*example.com/app/pool.CommandBuffer).getOrCreateEncoder
    call: {to: (*example.com/app/pool.Encoder).retain}
`,
		},
		guarded: "go/pool/pool.go", clean: goGuarded, reverted: goReverted,
		finding: "go/pool/pool.go:9:26: invariant encoder-retained: (*pool.CommandBuffer).getOrCreateEncoder must call (*pool.Encoder).retain",
	},
	{
		name:   "go module",
		module: ".",
		files: map[string]string{
			"go.mod":          "module example.com/app\n\ngo 1.26\n",
			"pool/pool.go":    goPool,
			"cmd/app/main.go": "package main\n\nimport \"example.com/app/pool\"\n\nfunc main() { _ = pool.New() }\n",
			"guardlint.yaml": `version: 1
package: ./pool
invariants:
  - id: encoder-retained
    why: the pool hands encoders out at +0
    function: (*CommandBuffer).getOrCreateEncoder
    call: {to: (*Encoder).retain}
`,
		},
		guarded: "pool/pool.go", clean: goGuarded, reverted: goReverted,
		finding: "pool/pool.go:9:26: invariant encoder-retained: (*pool.CommandBuffer).getOrCreateEncoder must call (*pool.Encoder).retain",
	},
}

const (
	goPool = `package pool

type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

type CommandBuffer struct{ active *Encoder }

func (cb *CommandBuffer) getOrCreateEncoder() *Encoder {
	if cb.active == nil {
		cb.active = &Encoder{}
		cb.active.retain()
	}
	return cb.active
}

// New returns a command buffer with its encoder.
func New() *CommandBuffer {
	cb := &CommandBuffer{}
	cb.getOrCreateEncoder()
	return cb
}
`
	goGuarded  = "\t\tcb.active.retain()\n"
	goReverted = "\t\t// cb.active.retain()\n"
)

// create makes the repository in a new temporary directory, committed.
func (r userRepo) create(t *testing.T, env []string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, r.files)
	writeFiles(t, dir, extra)
	mustRun(t, dir, env, "git", "init", "-q")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-m", "clean")
	return dir
}

// revert writes the guarded file with its guarded line reverted, or
// clean again.
func (r userRepo) revert(t *testing.T, dir string, reverted bool) {
	t.Helper()
	src := r.files[r.guarded]
	if reverted {
		require.Contains(t, src, r.clean)
		src = strings.Replace(src, r.clean, r.reverted, 1)
	}
	writeFiles(t, dir, map[string]string{r.guarded: src})
}

// installGuardlint installs guardlint the way the README says, `go
// install ./cmd/guardlint` from a checkout, into a new directory, and
// returns that directory, to put on PATH.
func installGuardlint(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	top := strings.TrimSpace(mustRun(t, ".", os.Environ(), "git", "rev-parse", "--show-toplevel"))
	mustRun(t, top, append(os.Environ(), "GOBIN="+bin), "sh", "-c", docBlock(t, "README.md", "install"))
	_, err := os.Stat(filepath.Join(bin, "guardlint"))
	require.NoError(t, err, "the README's install command installs guardlint")
	return bin
}

// docBlock returns the fenced code block that follows the line
// "<!-- ci: NAME -->" in a file of this repository: the docs' own text,
// run as written.
func docBlock(t *testing.T, file, name string) string {
	t.Helper()
	top := strings.TrimSpace(mustRun(t, ".", os.Environ(), "git", "rev-parse", "--show-toplevel"))
	f, err := os.Open(filepath.Join(top, file))
	require.NoError(t, err)
	defer f.Close()
	marker := "<!-- ci: " + name + " -->"
	var b strings.Builder
	found, in := false, false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case line == marker:
			found = true
		case found && !in && strings.HasPrefix(line, "```"):
			in = true
		case in && strings.HasPrefix(line, "```"):
			return b.String()
		case in:
			b.WriteString(line + "\n")
		}
	}
	require.Failf(t, "no doc block", "%s has no fenced block after %q", file, marker)
	return ""
}

// withPath returns env with dir first on PATH.
func withPath(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "GOFLAGS=", "GUARDLINT_CONFIG=")
}

// TestUserRepositories runs every surface the docs describe in each user
// repository: the standalone command from the root and from a
// subdirectory, the pre-commit hook (when pre-commit is installed), and
// for the Go ones go vet, with an edit of the invariants between two
// runs, and the golangci-lint custom binary (when $GUARDLINT_GOLANGCI_LINT
// names it; .ci/run builds it from the docs' .custom-gcl.yml).
func TestUserRepositories(t *testing.T) {
	if testing.Short() {
		t.Skip("installs guardlint and runs it in scratch repositories; skipped with -short")
	}
	bin := installGuardlint(t)
	env := withPath(gitEnv(), bin)
	_, havePreCommit := exec.LookPath("pre-commit")
	var hookRepo, rev, preCommitHome string
	if havePreCommit == nil {
		hookRepo, rev = snapshotRepo(t, env)
		preCommitHome = t.TempDir() // shared: pre-commit builds the hook once
	}
	golangci := os.Getenv("GUARDLINT_GOLANGCI_LINT")

	for _, r := range userRepos {
		t.Run(r.name, func(t *testing.T) {
			t.Run("standalone", func(t *testing.T) { checkStandalone(t, r, env, filepath.Join(bin, "guardlint")) })
			t.Run("pre-commit", func(t *testing.T) {
				if havePreCommit != nil {
					t.Skip("pre-commit is not installed (Debian: apt-get install pre-commit); .ci/run installs it")
				}
				checkPreCommit(t, r, withPath(preCommitEnv(t, preCommitHome), bin), hookRepo, rev)
			})
			if r.module == "" {
				return
			}
			t.Run("go vet", func(t *testing.T) { checkGoVet(t, r, env) })
			t.Run("golangci-lint", func(t *testing.T) {
				if golangci == "" {
					t.Skip("GUARDLINT_GOLANGCI_LINT is unset: build the custom binary (scripts/golangci-custom); .ci/run does")
				}
				checkGolangci(t, r, env, golangci)
			})
		})
	}
}

// checkStandalone runs `guardlint` and `guardlint ./...` from the root,
// and `guardlint` from a subdirectory, on the clean and the reverted
// code.
func checkStandalone(t *testing.T, r userRepo, env []string, guardlint string) {
	dir := r.create(t, env, nil)
	code, out := runIn(t, dir, env, guardlint)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "guardlint: 1 invariant checked, 0 findings")
	r.revert(t, dir, true)
	for _, args := range [][]string{nil, {"./..."}} {
		code, out = runIn(t, dir, env, guardlint, args...)
		assert.Equal(t, 1, code, "%v: %s", args, out)
		assert.Contains(t, out, r.finding, args)
	}
	// From a subdirectory the invariants file is found above it; paths
	// are relative to where guardlint runs.
	sub := filepath.Join(dir, filepath.Dir(filepath.FromSlash(r.guarded)))
	code, out = runIn(t, sub, env, guardlint)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "invariant "+strings.Fields(r.finding)[2])
	code, out = runIn(t, dir, env, guardlint, "-sarif")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"ruleId": "`+strings.TrimSuffix(strings.Fields(r.finding)[2], ":")+`"`)
}

// checkPreCommit installs the hook from .pre-commit-config.yaml as
// docs/pre-commit.md shows it, the hook repository being a clone of this
// one at a commit, and commits through it.
func checkPreCommit(t *testing.T, r userRepo, env []string, hookRepo, rev string) {
	config := docBlock(t, "docs/pre-commit.md", "pre-commit-config")
	require.Contains(t, config, "https://github.com/guardlint/guardlint")
	require.Contains(t, config, "<commit>")
	config = strings.Replace(config, "https://github.com/guardlint/guardlint", hookRepo, 1)
	config = strings.Replace(config, "<commit>", rev, 1)
	dir := r.create(t, env, map[string]string{".pre-commit-config.yaml": config})
	mustRun(t, dir, env, "pre-commit", "install")

	r.revert(t, dir, true)
	mustRun(t, dir, env, "git", "add", "-A")
	code, out := runIn(t, dir, env, "git", "commit", "-m", "simplify")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, r.finding)
	r.revert(t, dir, false)
	writeFiles(t, dir, map[string]string{"NOTES": "a clean change\n"})
	mustRun(t, dir, env, "git", "add", "-A")
	code, out = runIn(t, dir, env, "git", "commit", "-m", "notes")
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "notes\nclean\n", mustRun(t, dir, env, "git", "log", "--format=%s"))
}

// checkGoVet runs the go vet recipe of docs/go-vet.md in the module, on
// the reverted and the clean code, and edits the invariants between two
// runs over unchanged code: a broken file must then fail, and a fixed
// one pass again.
func checkGoVet(t *testing.T, r userRepo, env []string) {
	dir := r.create(t, env, nil)
	mod := filepath.Join(dir, r.module)
	recipe := docBlock(t, "docs/go-vet.md", "go-vet")
	vet := func() (int, string) { return runIn(t, mod, env, "sh", "-c", recipe) }
	r.revert(t, dir, true)
	code, out := vet()
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, "invariant encoder-retained: (*pool.CommandBuffer).getOrCreateEncoder must call (*pool.Encoder).retain")
	r.revert(t, dir, false)
	code, out = vet()
	assert.Equal(t, 0, code, out)

	yaml := r.files["guardlint.yaml"]
	writeFiles(t, dir, map[string]string{"guardlint.yaml": strings.Replace(yaml, "call:", "cal:", 1)})
	code, out = vet()
	assert.NotEqual(t, 0, code, "a broken invariants file after a clean run: %s", out)
	assert.Contains(t, out, `unknown key "cal"`)
	writeFiles(t, dir, map[string]string{"guardlint.yaml": yaml})
	code, out = vet()
	assert.Equal(t, 0, code, out)
}

// checkGolangci runs the custom golangci-lint binary with the docs'
// .golangci.yml in the module.
func checkGolangci(t *testing.T, r userRepo, env []string, bin string) {
	dir := r.create(t, env, map[string]string{
		filepath.ToSlash(filepath.Join(r.module, ".golangci.yml")): docBlock(t, "docs/golangci-lint.md", "golangci-yml"),
	})
	mod := filepath.Join(dir, r.module)
	lint := func() (int, string) {
		return runIn(t, mod, append(env, "GOLANGCI_LINT_CACHE="+t.TempDir()), bin, "run", "./...")
	}
	code, out := lint()
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "0 issues")
	r.revert(t, dir, true)
	code, out = lint()
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "pool.go:9:26: call: invariant encoder-retained:")
	// The standard linters see the reverted call too: retain is unused.
	assert.Contains(t, out, "* guardlint: 1\n")
}
