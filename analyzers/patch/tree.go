package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
)

// Tree is a directory's files in memory: the changes patches made, over
// a base that reads every other file (the disk, a git revision).
type Tree struct {
	read func(path string) ([]byte, error)
	// files holds the changed files by slash path; a nil entry is a file
	// removed.
	files map[string]*Text
}

// NewTree returns a tree over base, which reads a file by its slash path
// relative to the tree's root and returns an error satisfying
// errors.Is(err, fs.ErrNotExist) for a file that does not exist.
func NewTree(base func(path string) ([]byte, error)) *Tree {
	return &Tree{read: base, files: map[string]*Text{}}
}

// Read returns the tree's content of path, with its origins, and whether
// the file exists.
func (t *Tree) Read(path string) (Text, bool, error) {
	if txt, ok := t.files[path]; ok {
		if txt == nil {
			return Text{}, false, nil
		}
		return *txt, true, nil
	}
	data, err := t.read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Text{}, false, nil
	}
	if err != nil {
		return Text{}, false, err
	}
	return Text{Data: data}, true, nil
}

// Changed returns the paths the patches changed, sorted, and for each its
// content; a nil content is a removed file.
func (t *Tree) Changed() ([]string, map[string]*Text) {
	return slices.Sorted(maps.Keys(t.files)), t.files
}

// Apply applies every file change of p, or undoes them with reverse. It
// applies all of them or none: on an error the tree is as before.
func (t *Tree) Apply(p *Patch, reverse bool) error {
	staged := map[string]*Text{}
	read := func(path string) (Text, bool, error) {
		if txt, ok := staged[path]; ok {
			if txt == nil {
				return Text{}, false, nil
			}
			return *txt, true, nil
		}
		return t.Read(path)
	}
	for _, f := range p.Files {
		if err := t.applyFile(p.Name, f, reverse, read, staged); err != nil {
			return err
		}
	}
	maps.Copy(t.files, staged)
	return nil
}

// ApplyFile applies (or undoes) one file change of the patch named
// patchName, as Apply does for all of them.
func (t *Tree) ApplyFile(patchName string, f *File, reverse bool) error {
	return t.Apply(&Patch{Name: patchName, Files: []*File{f}}, reverse)
}

func (t *Tree) applyFile(patchName string, f *File, reverse bool, read func(string) (Text, bool, error), staged map[string]*Text) error {
	oldName, newName, isNew, isDelete := f.OldName, f.NewName, f.IsNew, f.IsDelete
	if reverse {
		oldName, newName, isNew, isDelete = newName, oldName, isDelete, isNew
	}
	var src Text
	if !isNew {
		txt, ok, err := read(oldName)
		if err != nil {
			return fmt.Errorf("%s: %w", patchName, err)
		}
		if !ok {
			return &FileError{Patch: patchName, File: oldName, Reason: "the file does not exist"}
		}
		src = txt
	} else if _, ok, err := read(newName); err != nil {
		return fmt.Errorf("%s: %w", patchName, err)
	} else if ok {
		return &FileError{Patch: patchName, File: newName, Reason: "the patch creates the file, which exists already"}
	}
	out, err := Apply(patchName, src, f, reverse)
	if err != nil {
		return err
	}
	if isDelete {
		if len(out.Data) > 0 {
			return &FileError{Patch: patchName, File: oldName, Reason: "the patch deletes the file, which holds more than the patch removes"}
		}
		staged[oldName] = nil
		return nil
	}
	if oldName != newName && !isNew {
		staged[oldName] = nil // a rename
	}
	staged[newName] = &out
	return nil
}

// FileError is a file change that does not apply as a whole: a file that
// is missing, or present when the patch creates it.
type FileError struct {
	Patch, File, Reason string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Patch, e.File, e.Reason)
}
