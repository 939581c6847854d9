package patch

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Patch is a parsed unified diff.
type Patch struct {
	// Name is what errors and origins call the patch: its file's path,
	// or a description such as "git diff A B".
	Name  string
	Files []*File
}

// File is the change a patch makes to one file.
type File struct {
	// OldName and NewName are the paths before and after, without git's
	// a/ and b/ prefixes; "" stands for /dev/null (a created or deleted
	// file).
	OldName, NewName string
	IsNew, IsDelete  bool
	// IsBinary marks a binary change, which this package does not apply.
	IsBinary bool
	Hunks    []*Hunk
}

// Name is the file's path after the change, or before it for a deletion.
func (f *File) Name() string {
	if f.NewName != "" {
		return f.NewName
	}
	return f.OldName
}

// Hunk is one @@ section of a file's change.
type Hunk struct {
	// Index is the hunk's number in its file, from 1.
	Index int
	// Line is the line of the @@ header in the patch text, from 1.
	Line int
	// OldPos, OldLines, NewPos, NewLines are the header's ranges.
	OldPos, OldLines, NewPos, NewLines int
	Lines                              []Line
}

// Header is the hunk's @@ line, without its trailing comment.
func (h *Hunk) Header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldPos, h.OldLines, h.NewPos, h.NewLines)
}

// Added and Removed count the hunk's + and - lines.
func (h *Hunk) Added() int   { return h.count(Add) }
func (h *Hunk) Removed() int { return h.count(Remove) }

func (h *Hunk) count(op Op) int {
	n := 0
	for _, l := range h.Lines {
		if l.Op == op {
			n++
		}
	}
	return n
}

// Op is what a hunk line does.
type Op byte

// Hunk line operations, as the first column of a unified diff writes them.
const (
	Context Op = ' '
	Add     Op = '+'
	Remove  Op = '-'
)

// Line is one line of a hunk.
type Line struct {
	Op Op
	// Text is the line with its newline; without one at the end of a
	// file that has none.
	Text string
	// PatchLine is the line's number in the patch text, from 1.
	PatchLine int
}

// Parse parses the unified diff in data. name is how errors and origins
// will name it. Text that is not a diff (a commit message before it) is
// ignored; a diff that changes nothing is an error, since a patch that
// silently does nothing is what a patch chain must not accept.
func Parse(name string, data []byte) (*Patch, error) {
	files, _, err := gitdiff.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no file changes in the patch", name)
	}
	p := &Patch{Name: name}
	// git's own headers give the names without their a/ and b/; a plain
	// diff's ---/+++ lines keep them, and are read as `patch -p1` would
	// when both sides have them.
	gitFormat := bytes.HasPrefix(data, []byte("diff --git ")) || bytes.Contains(data, []byte("\ndiff --git "))
	lines := strings.SplitAfter(string(data), "\n")
	cursor := 0
	for _, gf := range files {
		f := &File{
			OldName: gf.OldName, NewName: gf.NewName,
			IsNew: gf.IsNew, IsDelete: gf.IsDelete, IsBinary: gf.IsBinary,
		}
		if !gitFormat {
			f.OldName, f.NewName = stripPrefix(f.OldName), stripPrefix(f.NewName)
		}
		for i, frag := range gf.TextFragments {
			h, next, err := locate(lines, cursor, frag)
			if err != nil {
				return nil, fmt.Errorf("%s: %s hunk %d: %w", name, f.Name(), i+1, err)
			}
			h.Index = i + 1
			cursor = next
			f.Hunks = append(f.Hunks, h)
		}
		p.Files = append(p.Files, f)
	}
	return p, nil
}

// stripPrefix drops a plain diff's a/ or b/ from a name (the parser
// reads a plain diff's names from either line).
func stripPrefix(name string) string {
	if rest, ok := strings.CutPrefix(name, "a/"); ok {
		return rest
	}
	return strings.TrimPrefix(name, "b/")
}

// errNotFound says that a parsed hunk could not be found again in the
// patch text; it means the text is not what the parser read.
var errNotFound = errors.New("header not found in the patch text")

// locate finds the header of frag at or after line index from, and
// numbers the hunk's lines as the patch text has them. It returns the
// hunk and the index of the first line after it.
func locate(lines []string, from int, frag *gitdiff.TextFragment) (*Hunk, int, error) {
	h := &Hunk{
		OldPos: int(frag.OldPosition), OldLines: int(frag.OldLines),
		NewPos: int(frag.NewPosition), NewLines: int(frag.NewLines),
	}
	for i := from; i < len(lines); i++ {
		if !sameHeader(lines[i], h) {
			continue
		}
		h.Line = i + 1
		j := i + 1
		for _, fl := range frag.Lines {
			// "\ No newline at end of file" follows the line it is about.
			for j < len(lines) && strings.HasPrefix(lines[j], `\`) {
				j++
			}
			if j >= len(lines) {
				return nil, 0, fmt.Errorf("hunk at line %d: %w", h.Line, errNotFound)
			}
			op := Op(fl.Op.String()[0])
			if len(lines[j]) > 0 && Op(lines[j][0]) != op && (op != Context || lines[j] != "\n") {
				return nil, 0, fmt.Errorf("hunk at line %d: line %d is not %q", h.Line, j+1, op)
			}
			h.Lines = append(h.Lines, Line{Op: op, Text: fl.Line, PatchLine: j + 1})
			j++
		}
		for j < len(lines) && strings.HasPrefix(lines[j], `\`) {
			j++
		}
		return h, j, nil
	}
	return nil, 0, errNotFound
}

// sameHeader reports whether line is an @@ header with h's ranges. A
// range without a count ("@@ -1 +1 @@") counts one line.
func sameHeader(line string, h *Hunk) bool {
	if !strings.HasPrefix(line, "@@ -") {
		return false
	}
	var a, b, c, d int
	rest := strings.TrimPrefix(line, "@@ -")
	old, nw, ok := strings.Cut(rest, " +")
	if !ok {
		return false
	}
	nw, _, ok = strings.Cut(nw, " @@")
	if !ok {
		return false
	}
	if !parseRange(old, &a, &b) || !parseRange(nw, &c, &d) {
		return false
	}
	return a == h.OldPos && b == h.OldLines && c == h.NewPos && d == h.NewLines
}

func parseRange(s string, pos, n *int) bool {
	p, c, ok := strings.Cut(s, ",")
	if !ok {
		c = "1"
	}
	var err1, err2 error
	*pos, err1 = strconv.Atoi(p)
	*n, err2 = strconv.Atoi(c)
	return err1 == nil && err2 == nil
}

// Reverse returns the change that undoes f: additions become removals
// and the old and new sides swap.
func (f *File) Reverse() *File {
	r := &File{
		OldName: f.NewName, NewName: f.OldName,
		IsNew: f.IsDelete, IsDelete: f.IsNew, IsBinary: f.IsBinary,
	}
	for _, h := range f.Hunks {
		r.Hunks = append(r.Hunks, h.Reverse())
	}
	return r
}

// Reverse returns the hunk that undoes h.
func (h *Hunk) Reverse() *Hunk {
	r := &Hunk{
		Index: h.Index, Line: h.Line,
		OldPos: h.NewPos, OldLines: h.NewLines, NewPos: h.OldPos, NewLines: h.OldLines,
	}
	for _, l := range h.Lines {
		switch l.Op {
		case Add:
			l.Op = Remove
		case Remove:
			l.Op = Add
		}
		r.Lines = append(r.Lines, l)
	}
	return r
}
