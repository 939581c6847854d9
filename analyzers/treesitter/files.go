package treesitter

import (
	"fmt"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// expand returns the regular files a glob matches, sorted. The glob is
// relative to the invariants file's directory unless it is absolute. The
// walk starts at the longest leading part of the glob without wildcards,
// so a narrow glob reads only its own directory, and skips every
// directory under which the glob matches nothing. Files are seen through
// view (nil: the disk). Symbolic links are not followed
// (filepath.WalkDir), so a link that loops ends nothing and a linked file
// is not read.
func expand(base string, g invariants.Glob, view *overlay.Files) ([]string, error) {
	return expandWith(base, g, view, false)
}

// expandWith is expand, leaving out what git ignores (gitignore.go)
// unless includeIgnored.
func expandWith(base string, g invariants.Glob, view *overlay.Files, includeIgnored bool) ([]string, error) {
	pattern, root, literal := invariants.GlobRoot(base, g.Pattern)
	if literal {
		regular, err := view.IsRegular(root)
		if err != nil {
			return nil, err
		}
		if !regular {
			return nil, fmt.Errorf("%s is not a regular file", root)
		}
		return []string{filepath.FromSlash(root)}, nil
	}
	if !view.Exists(filepath.FromSlash(root)) {
		return nil, nil // reported as a glob that matches no file
	}
	var out []string
	var ignore *gitIgnore
	if !includeIgnored {
		ignore = newGitIgnore(filepath.FromSlash(root), view)
	}
	descend := func(dir string) bool {
		return invariants.GlobReaches(pattern, filepath.ToSlash(dir)) && (ignore == nil || !ignore.ignored(dir, true))
	}
	err := view.WalkFiles(filepath.FromSlash(root), descend, func(p string) {
		if invariants.MatchGlob(pattern, filepath.ToSlash(p)) && (ignore == nil || !ignore.ignored(p, false)) {
			out = append(out, p)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadSource reads a file through view (nil: the disk), the disk's files
// with the front end's size limit (syntax.ReadFile).
func ReadSource(view *overlay.Files, path string) ([]byte, error) {
	return view.ReadFileFrom(path, syntax.ReadFile)
}
