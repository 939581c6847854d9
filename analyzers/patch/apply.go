package patch

import (
	"fmt"
	"strings"
)

// Origin says where a line of an applied result comes from: the zero
// Origin is the source itself; otherwise the patch and the line of the
// patch text that added it.
type Origin struct {
	Patch string
	Line  int
}

// Text is a file's content with the origin of each of its lines.
type Text struct {
	Data []byte
	// Origins has one entry per line of Data (a last line without a
	// newline counts), or is nil when every line is from the source.
	Origins []Origin
}

// Origin returns the origin of line n (from 1) of the text.
func (t Text) Origin(n int) Origin {
	if n < 1 || n > len(t.Origins) {
		return Origin{}
	}
	return t.Origins[n-1]
}

// HunkError is a hunk that does not apply.
type HunkError struct {
	Patch string
	File  string
	Hunk  *Hunk
	// Reverse says the hunk was being undone.
	Reverse bool
	Reason  string
}

func (e *HunkError) Error() string {
	verb := "does not apply"
	if e.Reverse {
		verb = "does not reverse-apply"
	}
	return fmt.Sprintf("%s: %s: hunk %d (%s, patch line %d) %s: %s", e.Patch, e.File, e.Hunk.Index, e.Hunk.Header(), e.Hunk.Line, verb, e.Reason)
}

// Apply applies the hunks of f to src, in order, and returns the result.
// With reverse, the hunks are undone instead (f.Reverse applied). Each
// hunk is tried at the line its header gives, shifted by the offset the
// hunks before it were found at, then at the nearest offset in either
// direction where its context and removed lines match exactly; a hunk
// without context applies only at its line. A hunk found nowhere is a
// *HunkError naming it.
func Apply(patchName string, src Text, f *File, reverse bool) (Text, error) {
	if f.IsBinary {
		return Text{}, fmt.Errorf("%s: %s: binary changes are not applied", patchName, f.Name())
	}
	hunks := f.Hunks
	if reverse {
		hunks = f.Reverse().Hunks
	}
	lines := splitLines(src.Data)
	origins := src.Origins
	if origins == nil {
		origins = make([]Origin, len(lines))
	}
	var out []string
	var outOrigins []Origin
	next := 0  // first source line not yet copied
	delta := 0 // offset at which the previous hunk was found
	for i, h := range hunks {
		pre := preimage(h)
		want := h.OldPos - 1 + delta
		if h.OldLines == 0 {
			want = h.OldPos + delta // an insertion after line OldPos
		}
		at := find(lines, pre, want, next, len(pre) > 0 && context(h))
		if at < 0 {
			return Text{}, &HunkError{Patch: patchName, File: f.Name(), Hunk: f.Hunks[i], Reverse: reverse, Reason: mismatch(lines, pre, want)}
		}
		delta = at - (want - delta)
		out = append(out, lines[next:at]...)
		outOrigins = append(outOrigins, origins[next:at]...)
		k := at
		for _, l := range h.Lines {
			switch l.Op {
			case Context:
				out = append(out, lines[k])
				outOrigins = append(outOrigins, origins[k])
				k++
			case Remove:
				k++
			case Add:
				out = append(out, l.Text)
				outOrigins = append(outOrigins, Origin{Patch: patchName, Line: l.PatchLine})
			}
		}
		next = k
	}
	out = append(out, lines[next:]...)
	outOrigins = append(outOrigins, origins[next:]...)
	return Text{Data: []byte(strings.Join(out, "")), Origins: outOrigins}, nil
}

// splitLines splits data after each newline; a last line without one is
// a line too.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := strings.SplitAfter(string(data), "\n")
	if s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	return s
}

// preimage is the lines a hunk expects in the source: its context and
// removed lines.
func preimage(h *Hunk) []string {
	var pre []string
	for _, l := range h.Lines {
		if l.Op != Add {
			pre = append(pre, l.Text)
		}
	}
	return pre
}

// context reports whether the hunk has context lines, which make a
// match at another line meaningful.
func context(h *Hunk) bool {
	for _, l := range h.Lines {
		if l.Op == Context {
			return true
		}
	}
	return false
}

// find returns where pre matches lines exactly, at or after min: at want
// if it matches there, else (when shift allows it) at the nearest other
// line, the earlier one on a tie; -1 when it matches nowhere.
func find(lines, pre []string, want, min int, shift bool) int {
	if matchAt(lines, pre, want, min) {
		return want
	}
	if !shift {
		return -1
	}
	for d := 1; want-d >= min || want+d+len(pre) <= len(lines); d++ {
		if matchAt(lines, pre, want-d, min) {
			return want - d
		}
		if matchAt(lines, pre, want+d, min) {
			return want + d
		}
	}
	return -1
}

func matchAt(lines, pre []string, at, min int) bool {
	if at < min || at+len(pre) > len(lines) {
		return false
	}
	for i, l := range pre {
		if lines[at+i] != l {
			return false
		}
	}
	return true
}

// mismatch says why pre does not match at want: the first line that
// differs, or that the file is too short.
func mismatch(lines, pre []string, want int) string {
	if want < 0 || want+len(pre) > len(lines) {
		return fmt.Sprintf("the file has %d lines, the hunk needs %d from line %d, and its lines match nowhere else", len(lines), len(pre), want+1)
	}
	for i, l := range pre {
		if lines[want+i] != l {
			return fmt.Sprintf("line %d is %q, the hunk expects %q, and its lines match nowhere else", want+i+1, strings.TrimSuffix(lines[want+i], "\n"), strings.TrimSuffix(l, "\n"))
		}
	}
	return "its lines match nowhere after the previous hunk"
}

// Locate returns the line (from 1) at which the hunk's old side starts in
// src, found as Apply finds it (at its line, else at the nearest offset
// where it matches), or 0 when it matches nowhere. With reverse, the new
// side is looked for: where the lines a hunk added are in a file that
// has it applied.
func Locate(src []byte, h *Hunk, reverse bool) int {
	if reverse {
		h = h.Reverse()
	}
	want := h.OldPos - 1
	if h.OldLines == 0 {
		want = h.OldPos
	}
	pre := preimage(h)
	at := find(splitLines(src), pre, want, 0, len(pre) > 0 && context(h))
	return at + 1
}
