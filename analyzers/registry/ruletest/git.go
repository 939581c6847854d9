package ruletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// GitRepo makes a git repository in a temporary directory with one
// commit per map of files (path to content), in order, and returns its
// root: the history `guardlint suggest` and `prove --revert` read. The
// test is skipped where git is not installed.
func GitRepo(t *testing.T, commits ...map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=dev@example.com", "-c", "user.name=dev", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, b)
	}
	run("init", "-q")
	for i, files := range commits {
		for name, content := range files {
			p := filepath.Join(dir, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		}
		run("add", "-A")
		run("commit", "-q", "-m", "commit "+string(rune('A'+i)))
	}
	return dir
}
