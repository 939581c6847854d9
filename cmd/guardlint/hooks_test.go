package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scratch repository the hook tests commit into: one invariant, and
// the guarded line in its clean and its reverted form.
const (
	scratchInvariants = `version: 1
package: ./p
invariants:
  - id: encoder-retained
    why: the pool hands encoders out at +0
    function: (*CommandBuffer).getOrCreateEncoder
    call: {to: (*Encoder).retain}
`
	scratchSource = `package p

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
`
	guardedLine  = "\t\tcb.active.retain()\n"
	revertedLine = "\t\t// cb.active.retain()\n"
)

// gitEnv is the environment of the git commands: a fixed identity, and
// no git configuration, hook settings or repository location inherited
// from outside. HOME stays, so that go finds its usual caches and
// settings when the hooks build and run guardlint.
func gitEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
	)
	return append(env, extra...)
}

// runIn runs a command in dir and returns its exit code and output.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	require.NoError(t, err, "%s %v: %s", name, args, out)
	return 0, string(out)
}

// mustRun runs a command that has to succeed.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	code, out := runIn(t, dir, env, name, args...)
	require.Equal(t, 0, code, "%s %v: %s", name, args, out)
	return out
}

// writeFiles writes files (slash-separated names) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// scratchRepo makes a git repository holding a clean module with one
// invariant, plus extra files, committed without hooks.
func scratchRepo(t *testing.T, env []string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/scratch\n\ngo 1.26\n",
		"guardlint.yaml": scratchInvariants,
		"p/p.go":         scratchSource,
	}
	for k, v := range extra {
		files[k] = v
	}
	writeFiles(t, dir, files)
	mustRun(t, dir, env, "git", "init", "-q")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-m", "clean")
	return dir
}

// checkCommits shows on a scratch repository whose pre-commit hook is
// installed that a commit reverting the guarded line is refused, naming
// the invariant, that a clean commit passes, and that a broken invariants
// file is refused with its position.
func checkCommits(t *testing.T, dir string, env []string) {
	t.Helper()
	reverted := strings.Replace(scratchSource, guardedLine, revertedLine, 1)
	writeFiles(t, dir, map[string]string{"p/p.go": reverted})
	mustRun(t, dir, env, "git", "add", "p/p.go")
	code, out := runIn(t, dir, env, "git", "commit", "-m", "simplify getOrCreateEncoder")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, "p/p.go:9:26: invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain")
	assert.Equal(t, "clean\n", mustRun(t, dir, env, "git", "log", "--format=%s"), "the revert was committed")

	clean := strings.Replace(scratchSource, "package p\n", "// Package p pools encoders.\npackage p\n", 1)
	writeFiles(t, dir, map[string]string{"p/p.go": clean})
	mustRun(t, dir, env, "git", "add", "p/p.go")
	code, out = runIn(t, dir, env, "git", "commit", "-m", "document p")
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "document p\nclean\n", mustRun(t, dir, env, "git", "log", "--format=%s"))

	// A broken invariants file refuses the commit, with its position.
	writeFiles(t, dir, map[string]string{"guardlint.yaml": strings.Replace(scratchInvariants, "call:", "cal:", 1)})
	mustRun(t, dir, env, "git", "add", "guardlint.yaml")
	code, out = runIn(t, dir, env, "git", "commit", "-m", "broken invariants")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, `guardlint.yaml:7:5: invariant: unknown key "cal"`)
	writeFiles(t, dir, map[string]string{"guardlint.yaml": scratchInvariants})
	mustRun(t, dir, env, "git", "add", "guardlint.yaml")
}

// buildGuardlint builds this command into a temporary directory.
func buildGuardlint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "guardlint")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// TestGitHook runs .githooks/pre-commit as a plain git hook.
func TestGitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guardlint and commits into scratch repositories; skipped with -short")
	}
	hooks, err := filepath.Abs("../../.githooks")
	require.NoError(t, err)
	env := gitEnv("GUARDLINT=" + buildGuardlint(t))
	dir := scratchRepo(t, env, nil)
	mustRun(t, dir, env, "git", "config", "core.hooksPath", hooks)
	checkCommits(t, dir, env)

	// The hook checks what is staged: a revert that is staged and then
	// undone in the working tree only is still refused.
	reverted := strings.Replace(scratchSource, guardedLine, revertedLine, 1)
	writeFiles(t, dir, map[string]string{"p/p.go": reverted})
	mustRun(t, dir, env, "git", "add", "p/p.go")
	writeFiles(t, dir, map[string]string{"p/p.go": scratchSource})
	code, out := runIn(t, dir, env, "git", "commit", "-m", "staged revert")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, "invariant encoder-retained:")
	mustRun(t, dir, env, "git", "add", "p/p.go")

	// More bad input refuses the commit with a clear error: no
	// invariants file, no guardlint binary.
	// The snapshot lives in $TMPDIR; an invariants file there, above the
	// snapshot's root, is not the repository's and is not read.
	mustRun(t, dir, env, "git", "rm", "-q", "-f", "guardlint.yaml")
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"guardlint.yaml": scratchInvariants})
	code, out = runIn(t, dir, append(env, "TMPDIR="+outside), "git", "commit", "-m", "no invariants")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, "guardlint: no invariants")

	code, out = runIn(t, dir, gitEnv("GUARDLINT="+filepath.Join(t.TempDir(), "absent")), "git", "commit", "-m", "no binary")
	assert.NotEqual(t, 0, code, out)
	assert.Contains(t, out, "not found; install it with")
	assert.Equal(t, "document p\nclean\n", mustRun(t, dir, env, "git", "log", "--format=%s"))
}

// TestPreCommit installs this repository's .pre-commit-hooks.yaml with
// the pre-commit framework in a scratch repository, the way a user's
// .pre-commit-config.yaml does, and commits through it. It needs the
// pre-commit command (Debian: apt-get install pre-commit; .ci/run
// installs it).
func TestPreCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the hook with pre-commit, which builds guardlint; skipped with -short")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("pre-commit is not installed (Debian: apt-get install pre-commit); .ci/run installs it")
	}
	env := preCommitEnv(t, t.TempDir())
	hookRepo, rev := snapshotRepo(t, env)
	config := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: guardlint\n", hookRepo, rev)
	dir := scratchRepo(t, env, map[string]string{".pre-commit-config.yaml": config})
	mustRun(t, dir, env, "pre-commit", "install")
	checkCommits(t, dir, env)
}

// preCommitEnv is the environment of pre-commit runs: gitEnv with its own
// pre-commit home.
func preCommitEnv(t *testing.T, home string) []string {
	t.Helper()
	env := gitEnv("PRE_COMMIT_HOME=" + home)
	// pre-commit builds the hook with GOPATH set to its own directory,
	// which moves the module cache there; keeping the usual one only
	// spares downloading every module again.
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		env = append(env, "GOMODCACHE="+strings.TrimSpace(string(out)))
	}
	return env
}

// snapshotRepo makes a git repository of this working tree (tracked and
// untracked files, as git would see them after a commit) and returns it
// with its commit: pre-commit clones a hook repository at a revision, and
// the tests must check the hook definition as it is now.
func snapshotRepo(t *testing.T, env []string) (string, string) {
	t.Helper()
	top := strings.TrimSpace(mustRun(t, ".", env, "git", "rev-parse", "--show-toplevel"))
	hookRepo := t.TempDir()
	files := mustRun(t, top, env, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, name := range strings.Split(strings.TrimRight(files, "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(top, name))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		require.NoError(t, err)
		info, err := os.Stat(filepath.Join(top, name))
		require.NoError(t, err)
		p := filepath.Join(hookRepo, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, info.Mode().Perm()))
	}
	mustRun(t, hookRepo, env, "git", "init", "-q")
	mustRun(t, hookRepo, env, "git", "add", "-A")
	mustRun(t, hookRepo, env, "git", "commit", "-q", "-m", "snapshot")
	return hookRepo, strings.TrimSpace(mustRun(t, hookRepo, env, "git", "rev-parse", "HEAD"))
}
