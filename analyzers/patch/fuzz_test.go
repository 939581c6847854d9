package patch

import (
	"testing"
)

// FuzzParseApply feeds arbitrary patch text and source to the parser and
// the applier: neither may panic or hang, and a patch that applies must
// undo to the source again.
func FuzzParseApply(f *testing.F) {
	f.Add([]byte(change), []byte(ten))
	f.Add([]byte("--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+inserted\n"), []byte("a\nb\nc\n"))
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"), []byte("a"))
	f.Add([]byte("@@ -1,2 +1,3 @@\n x\n"), []byte("x\n"))
	f.Fuzz(func(t *testing.T, patchText, src []byte) {
		p, err := Parse("fuzz.patch", patchText)
		if err != nil {
			return
		}
		for _, file := range p.Files {
			if file.IsBinary {
				continue
			}
			out, err := Apply("fuzz.patch", Text{Data: src}, file, false)
			if err != nil {
				continue
			}
			back, err := Apply("fuzz.patch", out, file, true)
			if err != nil {
				// Undoing may find the added lines earlier than where
				// they were put, when they repeat; that is an error, never
				// a wrong result, so only a success is compared.
				continue
			}
			if string(back.Data) != string(src) && !ambiguous(file) && atItsLine(src, file.Hunks[0]) {
				t.Fatalf("apply then undo changed the source:\n%q\nto\n%q", src, back.Data)
			}
		}
	})
}

// ambiguous reports whether undoing a file change can legitimately land
// elsewhere: with several hunks, or a hunk without context, the undo is
// located independently of where the change was applied.
func ambiguous(f *File) bool {
	return len(f.Hunks) != 1 || !context(f.Hunks[0])
}

// atItsLine reports whether the hunk applies to src at the line its
// header gives: then its undo, looked for at the same line first, must
// find it there. At an offset, the undo may find an equal block nearer
// to the header's line, which is a different but correct undo.
func atItsLine(src []byte, h *Hunk) bool {
	want := h.OldPos
	if h.OldLines == 0 {
		want++
	}
	return Locate(src, h, false) == want
}
