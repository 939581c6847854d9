package fix

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/patch"
)

// emptyTree is git's empty tree, the parent a root commit is diffed
// against.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Change is the change of a commit or a range of commits.
type Change struct {
	// Rev is the revision as given: a commit, or A..B.
	Rev string
	// Commit is the full hash of the commit, or of B for a range; Short
	// is its abbreviation.
	Commit, Short string
	// Title is the commit's subject, or the range for a range.
	Title string
	// Root is the repository's top-level directory; the patch's paths
	// are relative to it.
	Root  string
	Patch *patch.Patch
}

// ErrShallow says that the history a revision needs is not in the clone.
var ErrShallow = errors.New("the history is not in this clone")

// Read reads the change of rev in the git repository that holds dir:
// for a commit, its diff against its first parent (the empty tree for a
// root commit); for A..B, the diff from A to B. paths, when given, limit
// the change to those pathspecs, relative to dir.
func Read(dir, rev string, paths []string) (*Change, error) {
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git repository: %w", dir, err)
	}
	c := &Change{Rev: rev, Root: strings.TrimSpace(root)}
	var from, to string
	if a, b, ok := strings.Cut(rev, ".."); ok {
		if strings.HasPrefix(b, ".") || a == "" || b == "" {
			return nil, &revError{fmt.Sprintf("revision %q: give a commit or a range A..B", rev)}
		}
		if from, err = commit(dir, a); err != nil {
			return nil, err
		}
		if to, err = commit(dir, b); err != nil {
			return nil, err
		}
		c.Title = rev
	} else {
		if to, err = commit(dir, rev); err != nil {
			return nil, err
		}
		line, err := git(dir, "rev-list", "--parents", "-n", "1", to)
		if err != nil {
			return nil, err
		}
		from = emptyTree
		if f := strings.Fields(line); len(f) > 1 {
			from = f[1]
		} else if shallow(dir, to) {
			return nil, fmt.Errorf("revision %q: %w (a shallow clone: run git fetch --unshallow)", rev, ErrShallow)
		}
		if c.Title, err = git(dir, "log", "-1", "--format=%s", to); err != nil {
			return nil, err
		}
		c.Title = strings.TrimSpace(c.Title)
	}
	c.Commit = to
	short, err := git(dir, "rev-parse", "--short", to)
	if err != nil {
		return nil, err
	}
	c.Short = strings.TrimSpace(short)
	// The prefixes and the rest are fixed whatever the user's git
	// configuration says (diff.noprefix, external diff drivers, color):
	// the parser reads git's default format. Renames are shown as a
	// deletion and an addition, which undo the same way.
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--binary",
		"--src-prefix=a/", "--dst-prefix=b/", "-U3", from, to, "--"}
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(c.Root, abs)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, &revError{fmt.Sprintf("path %s is outside the repository %s", p, c.Root)}
		}
		args = append(args, ":(top)"+filepath.ToSlash(rel))
	}
	diff, err := git(dir, args...)
	if err != nil {
		return nil, err
	}
	name := "the change of " + rev
	if strings.TrimSpace(diff) == "" {
		return nil, &revError{fmt.Sprintf("%s changes no file%s", name, pathNote(paths))}
	}
	if c.Patch, err = patch.Parse(name, []byte(diff)); err != nil {
		return nil, err
	}
	return c, nil
}

func pathNote(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return " under " + strings.Join(paths, ", ")
}

// commit resolves rev to a full commit hash.
func commit(dir, rev string) (string, error) {
	out, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if shallow(dir, "") {
			return "", fmt.Errorf("revision %q is not a commit of this repository: %w (a shallow clone: run git fetch --unshallow)", rev, ErrShallow)
		}
		return "", &revError{fmt.Sprintf("revision %q is not a commit of this repository", rev)}
	}
	return strings.TrimSpace(out), nil
}

// shallow reports whether the clone is shallow (and, when commit is
// given, whether that commit is one of its cut-off points).
func shallow(dir, commit string) bool {
	out, err := git(dir, "rev-parse", "--is-shallow-repository")
	if err != nil || strings.TrimSpace(out) != "true" {
		return false
	}
	if commit == "" {
		return true
	}
	gitDir, err := git(dir, "rev-parse", "--git-common-dir")
	if err != nil {
		return true
	}
	p := strings.TrimSpace(gitDir)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	data, err := os.ReadFile(filepath.Join(p, "shallow"))
	return err != nil || bytes.Contains(data, []byte(commit))
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}
