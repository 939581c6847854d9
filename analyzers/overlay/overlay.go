// Package overlay is a view of source files with some of them replaced or
// removed in memory: a revert, a patched upstream tree, a mutant. The
// Go front end hands it to go/packages as an overlay; the tree-sitter
// front end reads, stats and walks files through it. A nil *Files is the
// disk itself.
package overlay

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Files replaces and removes files by absolute, clean path.
type Files struct {
	replaced map[string][]byte
	removed  map[string]bool
}

// New returns an empty overlay.
func New() *Files {
	return &Files{replaced: map[string][]byte{}, removed: map[string]bool{}}
}

// Replace sets the content of path, a file that may or may not exist on
// disk.
func (f *Files) Replace(path string, data []byte) {
	path = filepath.Clean(path)
	delete(f.removed, path)
	f.replaced[path] = data
}

// Remove hides path: reads fail as for a missing file and walks skip it.
func (f *Files) Remove(path string) {
	path = filepath.Clean(path)
	delete(f.replaced, path)
	f.removed[path] = true
}

// Paths returns the replaced and the removed paths, sorted.
func (f *Files) Paths() (replaced, removed []string) {
	if f == nil {
		return nil, nil
	}
	return slices.Sorted(maps.Keys(f.replaced)), slices.Sorted(maps.Keys(f.removed))
}

// Empty reports whether the overlay changes nothing.
func (f *Files) Empty() bool { return f == nil || len(f.replaced)+len(f.removed) == 0 }

// ReadFile reads path through the overlay.
func (f *Files) ReadFile(path string) ([]byte, error) { return f.ReadFileFrom(path, os.ReadFile) }

// ReadFileFrom is ReadFile with the disk read by disk: a front end that
// bounds what it reads (treesitter's size limit) passes its own reader.
func (f *Files) ReadFileFrom(path string, disk func(string) ([]byte, error)) ([]byte, error) {
	if f != nil {
		clean := filepath.Clean(path)
		if data, ok := f.replaced[clean]; ok {
			return data, nil
		}
		if f.removed[clean] {
			return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
		}
	}
	return disk(path)
}

// IsRegular reports whether path is a regular file in the view; a path
// that does not exist is an error satisfying fs.ErrNotExist.
func (f *Files) IsRegular(path string) (bool, error) {
	if f != nil {
		clean := filepath.Clean(path)
		if _, ok := f.replaced[clean]; ok {
			return true, nil
		}
		if f.removed[clean] {
			return false, &fs.PathError{Op: "stat", Path: path, Err: fs.ErrNotExist}
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return info.Mode().IsRegular(), nil
}

// Exists reports whether root exists in the view, as a file or as a
// directory holding a replaced file.
func (f *Files) Exists(root string) bool {
	if _, err := os.Stat(root); err == nil {
		return true
	}
	if f == nil {
		return false
	}
	clean := filepath.Clean(root)
	for p := range f.replaced {
		if p == clean || strings.HasPrefix(p, clean+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// WalkFiles calls fn for every regular file under root in the view, in
// lexical order: the disk's files less the removed ones, plus the
// replaced files under root that the disk lacks. descend, when set, says
// whether to enter a directory below root; the replaced files it passes
// over are passed over too. Symbolic links are not followed.
func (f *Files) WalkFiles(root string, descend func(dir string) bool, fn func(path string)) error {
	var paths []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == root && f != nil {
				return filepath.SkipDir // the root may exist only in the overlay
			}
			return err
		}
		if d.IsDir() && p != root && descend != nil && !descend(p) {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if f != nil && f.removed[filepath.Clean(p)] {
			return nil
		}
		seen[filepath.Clean(p)] = true
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return err
	}
	if f != nil {
		clean := filepath.Clean(root)
		for p := range f.replaced {
			if !seen[p] && (p == clean || strings.HasPrefix(p, clean+string(filepath.Separator))) && reached(clean, p, descend) {
				paths = append(paths, p)
			}
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		fn(p)
	}
	return nil
}

// Go returns the overlay for go/packages: the replaced Go files, and
// each removed one as a file that no build includes (go/packages cannot
// remove a file, but a file under the constraint `ignore` is left out of
// every package, which is what removing it means to the build). base
// holds overlays to keep; it is not modified.
func (f *Files) Go(base map[string][]byte) (map[string][]byte, error) {
	if f.Empty() {
		return base, nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string][]byte{}
	}
	for p, data := range f.replaced {
		if filepath.Ext(p) == ".go" {
			out[p] = data
		}
	}
	for p := range f.removed {
		if filepath.Ext(p) != ".go" {
			continue
		}
		pkg, err := packageClause(p)
		if err != nil {
			return nil, err
		}
		out[p] = []byte("//go:build ignore\n\npackage " + pkg + "\n")
	}
	return out, nil
}

// packageClause reads the package name of a Go file on disk, so that the
// stub of a removed file names the same package.
func packageClause(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "removed", nil // nothing on disk to hide
	}
	if err != nil {
		return "", err
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, data, parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("removed file: %w", err)
	}
	return f.Name.Name, nil
}

// reached reports whether a walk from root that enters only the
// directories descend accepts reaches the file p.
func reached(root, p string, descend func(string) bool) bool {
	if descend == nil {
		return true
	}
	for dir := filepath.Dir(p); dir != root && len(dir) > len(root); dir = filepath.Dir(dir) {
		if !descend(dir) {
			return false
		}
	}
	return true
}
