package driver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// DefaultFile is the invariants file looked for when no file is named.
const DefaultFile = "guardlint.yaml"

// EnvConfig names the environment variable that gives the invariants
// files when the command line (or the plugin's settings) names none.
const EnvConfig = "GUARDLINT_CONFIG"

// ErrNoConfig says that discovery found no invariants file.
var ErrNoConfig = errors.New("no invariants")

// SplitList splits a comma-separated list of paths, as -config and
// $GUARDLINT_CONFIG write them, dropping empty items.
func SplitList(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ConfigPaths decides which invariants files to read, the same way for
// every command and the plugin: the explicit list (the -config flag, the
// plugin's settings), else $GUARDLINT_CONFIG, else the nearest
// guardlint.yaml in dir or a parent of it, up to the repository root
// (see RepoRoot). Relative paths are relative to dir.
//
// The walk crosses Go modules on purpose: a repository that keeps a Rust
// crate, C++ code and Go modules side by side has one invariants file at
// its root, and a command run inside a module (go vet runs in each
// package's directory) must find it. It stops at the repository root so
// that a stray file above the repository is never read.
func ConfigPaths(explicit []string, getenv func(string) string, dir string) ([]string, error) {
	list, from := explicit, "-config"
	if len(list) == 0 {
		list, from = SplitList(getenv(EnvConfig)), EnvConfig
	}
	if len(list) > 0 {
		out := make([]string, 0, len(list))
		for _, p := range list {
			if p == "" {
				return nil, fmt.Errorf("%w: %s lists an empty path", ErrNoConfig, from)
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out = append(out, p)
		}
		return out, nil
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, inRepo := repoRoot(dir)
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, DefaultFile)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return []string{p}, nil
		}
		if (inRepo && d == root) || filepath.Dir(d) == d {
			break
		}
	}
	upTo := "the repository root " + root
	if !inRepo {
		upTo = "the filesystem root (no .git above it)"
	}
	return nil, fmt.Errorf("%w: no -config flag, no %s, and no %s in %s or a parent up to %s", ErrNoConfig, EnvConfig, DefaultFile, dir, upTo)
}

// RepoRoot returns the root of the repository that holds dir: the
// nearest directory at or above dir with a .git entry (a directory, or
// a file in a worktree). Outside a repository it returns dir.
func RepoRoot(dir string) string {
	root, _ := repoRoot(dir)
	return root
}

// repoRoot is RepoRoot, also saying whether a .git entry was found; outside
// a repository the root is the filesystem's.
func repoRoot(dir string) (string, bool) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return dir, false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir, false
		}
		d = parent
	}
}

// Load loads the invariants files.
func Load(paths ...string) (*invariants.Set, error) {
	return registry.Load(paths...)
}

// PrintConfigError prints a loader error one line per error, with paths
// relative to dir.
func PrintConfigError(w io.Writer, err error, dir string) {
	var list invariants.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintf(w, "%s:%d:%d: %s\n", core.RelPath(dir, e.Pos.File), e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return
	}
	fmt.Fprintf(w, "guardlint: %v\n", err)
}
