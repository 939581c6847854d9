package treesitter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// expand returns the regular files a glob matches, sorted. The glob is
// relative to the invariants file's directory unless it is absolute. The
// walk starts at the longest leading part of the glob without wildcards,
// so a narrow glob reads only its own directory, and skips every
// directory under which the glob matches nothing. Symbolic links are not
// followed (filepath.WalkDir), so a link that loops ends nothing and a
// linked file is not read.
func expand(base string, g invariants.Glob) ([]string, error) {
	pattern := filepath.ToSlash(g.Pattern)
	if !filepath.IsAbs(g.Pattern) {
		pattern = filepath.ToSlash(filepath.Join(base, g.Pattern))
	}
	segs := strings.Split(pattern, "/")
	static := 0
	for static < len(segs) && !strings.ContainsAny(segs[static], "*?[") {
		static++
	}
	root := strings.Join(segs[:static], "/")
	if root == "" {
		root = "/"
	}
	if static == len(segs) {
		info, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", root)
		}
		return []string{filepath.FromSlash(root)}, nil
	}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil // reported as a glob that matches no file
	}
	var out []string
	err := filepath.WalkDir(filepath.FromSlash(root), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && !invariants.GlobReaches(pattern, filepath.ToSlash(p)) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && invariants.MatchGlob(pattern, filepath.ToSlash(p)) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
