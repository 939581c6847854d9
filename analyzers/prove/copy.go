package prove

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// apply writes a mutant's files into a copy and returns how to undo it.
func apply(root, copyDir string, m *mutant.Mutant) (func() error, error) {
	type saved struct {
		path string
		data []byte
		had  bool
	}
	var undo []saved
	restore := func() error {
		var errs []error
		for _, s := range undo {
			if s.had {
				errs = append(errs, os.WriteFile(s.path, s.data, 0o644))
			} else {
				errs = append(errs, os.Remove(s.path))
			}
		}
		return errors.Join(errs...)
	}
	for name, data := range m.Files {
		rel, err := filepath.Rel(root, name)
		if err != nil || !filepath.IsLocal(rel) {
			return restore, fmt.Errorf("mutant %s changes %s, outside the tree %s that --test copies (run prove from a directory above it)", m.Name, name, root)
		}
		dst := filepath.Join(copyDir, rel)
		old, err := os.ReadFile(dst)
		undo = append(undo, saved{path: dst, data: old, had: err == nil})
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return restore, err
		}
	}
	return restore, nil
}

// treeRoot is the tree --test copies: the Go module above dir when a
// mutant changes Go code, so that the go command finds the module in the
// copy; otherwise dir itself, the directory prove runs in (a crate's or a
// CMake project's root), which must hold every file the mutants change.
func treeRoot(rep *Report, dir string) (string, error) {
	for _, res := range rep.Mutants() {
		if res.Verdict != Void && !res.Mutant.Invariant.Lang.TreeSitter() {
			return moduleRoot(dir)
		}
	}
	return dir, nil
}

// moduleRoot finds the directory of the go.mod above dir.
func moduleRoot(dir string) (string, error) {
	root, err := invariants.ModuleRoot(dir)
	if err == nil && root == "" {
		err = fmt.Errorf("no go.mod above %s", dir)
	}
	return root, err
}

// moduleFiles lists the files of the module to copy, relative to root:
// what git tracks or would track, or everything but .git.
func moduleFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f == "" {
				continue
			}
			if info, err := os.Lstat(filepath.Join(root, f)); err == nil && info.Mode().IsRegular() {
				files = append(files, f)
			}
		}
		return files, nil
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

// copyModule copies the files into a new temporary directory.
func copyModule(root string, files []string) (string, error) {
	dir, err := os.MkdirTemp("", "guardlint-prove-")
	if err != nil {
		return "", err
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return dir, err
		}
		info, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			return dir, err
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return dir, err
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			return dir, err
		}
	}
	return dir, nil
}
