package fix

import (
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Skip is a file of the change that a revert leaves as it is, or whose
// hunks are not checked, with the reason.
type Skip struct {
	File, Why string
}

// Reasons a file of the change is left out.
const (
	whyInvariants = "an invariants file: the invariants are checked as they are now"
	whyBinary     = "a binary file"
	whyTest       = "a test file: tests are the functional guards, see prove --test"
	whyNotSource  = "not a source file guardlint checks"
)

// sourceLang returns the language guardlint reads a file in, from its
// name, or "" for files it does not check (documentation, data, tests).
func sourceLang(path string) string {
	if strings.HasSuffix(path, "_test.go") {
		return ""
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".c":
		return "c"
	case ".h", ".hh", ".hpp", ".hxx", ".cc", ".cpp", ".cxx", ".ipp", ".inl":
		return "cpp"
	case ".cu", ".cuh":
		return "cuda"
	case ".rs":
		return "rust"
	case ".metal":
		// Metal is C++ with address-space and attribute syntax; lang: metal
		// invariants check it, so a fix to a .metal file is a source
		// change like any other.
		return "metal"
	}
	return ""
}

// reverter undoes a change, or parts of it, over the disk.
type reverter struct {
	change *Change
	// kept reports files that are never undone (the invariants files),
	// by slash path relative to the repository root.
	kept func(rel string) bool
}

// base reads a file of the work tree by its slash path relative to the
// repository root.
func (r *reverter) base(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(r.change.Root, filepath.FromSlash(rel)))
}

// revert undoes the whole change and returns the view of the work tree
// it leaves, with the files it left alone. A hunk that does not
// reverse-apply is an error naming it.
func (r *reverter) revert() (*overlay.Files, []Skip, error) {
	tree := patch.NewTree(r.base)
	var skipped []Skip
	for _, f := range r.change.Patch.Files {
		if why := r.leave(f); why != "" {
			skipped = append(skipped, Skip{File: f.Name(), Why: why})
			continue
		}
		if err := tree.ApplyFile(r.change.Patch.Name, f, true); err != nil {
			return nil, nil, err
		}
	}
	return r.view(tree), skipped, nil
}

// leave says why a file of the change is not undone, or "".
func (r *reverter) leave(f *patch.File) string {
	switch {
	case r.kept(f.OldName) || r.kept(f.NewName):
		return whyInvariants
	case f.IsBinary:
		return whyBinary
	}
	return ""
}

// revertHunk undoes one hunk of one file only.
func (r *reverter) revertHunk(f *patch.File, h *patch.Hunk) (*overlay.Files, error) {
	tree := patch.NewTree(r.base)
	one := *f
	one.Hunks = []*patch.Hunk{h}
	// Undoing one hunk of a created file leaves the rest of the file;
	// only undoing all of it deletes the file.
	if len(f.Hunks) > 1 || h.NewLines != h.Added() || !f.IsNew {
		one.IsNew, one.IsDelete = false, false
		if one.OldName == "" {
			one.OldName = one.NewName
		}
		if one.NewName == "" {
			one.NewName = one.OldName
		}
	}
	if err := tree.ApplyFile(r.change.Patch.Name, &one, true); err != nil {
		return nil, err
	}
	return r.view(tree), nil
}

// view turns a tree's changes into an overlay of absolute paths.
func (r *reverter) view(tree *patch.Tree) *overlay.Files {
	v := overlay.New()
	paths, files := tree.Changed()
	for _, p := range paths {
		abs := filepath.Join(r.change.Root, filepath.FromSlash(p))
		if files[p] == nil {
			v.Remove(abs)
		} else {
			v.Replace(abs, files[p].Data)
		}
	}
	return v
}

// codeChanged reports whether undoing the hunk changes any token of the
// file's code, comments and spacing aside: a hunk that only adds
// comments or blank lines is nothing an invariant could catch.
func codeChanged(lang, path string, before, after []byte) (bool, error) {
	a, err := codeTokens(lang, path, before)
	if err != nil {
		return true, err
	}
	b, err := codeTokens(lang, path, after)
	if err != nil {
		return true, err
	}
	return !slices.Equal(a, b), nil
}

// codeTokens returns the file's tokens without comments.
func codeTokens(lang, path string, src []byte) ([]string, error) {
	if lang == "go" {
		fset := token.NewFileSet()
		file := fset.AddFile(path, -1, len(src))
		var s scanner.Scanner
		var errs scanner.ErrorList
		s.Init(file, src, func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
		var out []string
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.SEMICOLON && lit == "\n" {
				continue // inserted at line ends: spacing, not code
			}
			out = append(out, tok.String()+lit)
		}
		if len(errs) > 0 {
			return nil, errs.Err()
		}
		return out, nil
	}
	f, err := syntax.Parse(syntax.Lang(lang), path, src)
	if err != nil {
		return nil, err
	}
	return f.Tokens(f.Root), nil
}

// isApplyError reports whether err is a hunk or file that does not
// apply, as opposed to a failure to read.
func isApplyError(err error) bool {
	var he *patch.HunkError
	var fe *patch.FileError
	return errors.As(err, &he) || errors.As(err, &fe)
}

// hunkRange formats the lines a hunk added, in the fixed file's
// numbering, for reports: "12-20 (+8 -1)".
func hunkRange(h *patch.Hunk) string {
	first, last := 0, 0
	line := h.NewPos
	for _, l := range h.Lines {
		switch l.Op {
		case patch.Context:
			line++
		case patch.Add:
			if first == 0 {
				first = line
			}
			last = line
			line++
		}
	}
	span := fmt.Sprint(first)
	if last > first {
		span = fmt.Sprintf("%d-%d", first, last)
	}
	return fmt.Sprintf("%s (+%d -%d)", span, h.Added(), h.Removed())
}
