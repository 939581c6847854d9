package patch

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// change is `git diff` of three changes: two hunks in a.txt, a new file
// without a final newline, a deleted file.
const change = `diff --git a/a.txt b/a.txt
index c9e9e05..899b65d 100644
--- a/a.txt
+++ b/a.txt
@@ -1,5 +1,5 @@
 one
-two
+TWO
 three
 four
 five
@@ -7,4 +7,5 @@ six
 seven
 eight
 nine
+nine and a half
 ten
diff --git a/new.txt b/new.txt
new file mode 100644
index 0000000..d55b18c
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+new file
+no eol
\ No newline at end of file
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 286c5f5..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
`

const ten = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"

// disk is a base of files in memory.
func disk(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func TestParseNumbersHunksAndLines(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	require.Len(t, p.Files, 3)
	a := p.Files[0]
	assert.Equal(t, "a.txt", a.Name())
	require.Len(t, a.Hunks, 2)
	assert.Equal(t, 5, a.Hunks[0].Line)
	assert.Equal(t, "@@ -7,4 +7,5 @@", a.Hunks[1].Header())
	assert.Equal(t, 12, a.Hunks[1].Line)
	// The added line of the second hunk is line 16 of the patch.
	assert.Equal(t, Line{Op: Add, Text: "nine and a half\n", PatchLine: 16}, a.Hunks[1].Lines[3])
	assert.Equal(t, 1, a.Hunks[1].Added())
	assert.True(t, p.Files[1].IsNew)
	assert.Equal(t, "no eol", p.Files[1].Hunks[0].Lines[1].Text)
	assert.True(t, p.Files[2].IsDelete)
	assert.Equal(t, "old.txt", p.Files[2].Name())
}

func TestParseRejectsWhatIsNoPatch(t *testing.T) {
	_, err := Parse("notes.txt", []byte("just some text\n"))
	require.ErrorContains(t, err, "notes.txt: no file changes")
	_, err = Parse("bad.patch", []byte("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n x\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.patch")
}

func TestTreeAppliesAndReverts(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	tree := NewTree(disk(map[string]string{"a.txt": ten, "old.txt": "gone\n"}))
	require.NoError(t, tree.Apply(p, false))
	a, ok, err := tree.Read("a.txt")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nnine and a half\nten\n", string(a.Data))
	assert.Equal(t, Origin{Patch: "change.patch", Line: 8}, a.Origin(2))
	assert.Equal(t, Origin{}, a.Origin(3))
	assert.Equal(t, Origin{Patch: "change.patch", Line: 16}, a.Origin(10))
	n, ok, _ := tree.Read("new.txt")
	require.True(t, ok)
	assert.Equal(t, "new file\nno eol", string(n.Data))
	_, ok, _ = tree.Read("old.txt")
	assert.False(t, ok, "old.txt is deleted")

	// Undoing the patch on the patched tree gives the base back.
	require.NoError(t, tree.Apply(p, true))
	a, _, _ = tree.Read("a.txt")
	assert.Equal(t, ten, string(a.Data))
	_, ok, _ = tree.Read("new.txt")
	assert.False(t, ok)
	o, ok, _ := tree.Read("old.txt")
	require.True(t, ok)
	assert.Equal(t, "gone\n", string(o.Data))
}

func TestApplyFindsHunksAtAnOffset(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	// Three lines before "one" shift both hunks; the second is found
	// at the offset the first was found at.
	src := "x\ny\nz\n" + ten
	out, err := Apply("change.patch", Text{Data: []byte(src)}, p.Files[0], false)
	require.NoError(t, err)
	assert.Equal(t, "x\ny\nz\none\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nnine and a half\nten\n", string(out.Data))
}

func TestApplyNamesTheHunkThatDoesNotApply(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	src := strings.Replace(ten, "eight", "EIGHT", 1)
	_, err = Apply("change.patch", Text{Data: []byte(src)}, p.Files[0], false)
	var he *HunkError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 2, he.Hunk.Index)
	assert.Equal(t, 12, he.Hunk.Line)
	assert.Equal(t, `change.patch: a.txt: hunk 2 (@@ -7,4 +7,5 @@, patch line 12) does not apply: line 8 is "EIGHT", the hunk expects "eight", and its lines match nowhere else`, err.Error())

	// Undoing a patch that is not applied names the first hunk.
	_, err = Apply("change.patch", Text{Data: []byte(ten)}, p.Files[0], true)
	require.ErrorAs(t, err, &he)
	assert.True(t, he.Reverse)
	assert.Equal(t, 1, he.Hunk.Index)
	assert.Contains(t, err.Error(), "does not reverse-apply")
}

func TestTreeFailsWholeOnAFileError(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	// old.txt is missing: nothing of the patch is applied.
	tree := NewTree(disk(map[string]string{"a.txt": ten}))
	err = tree.Apply(p, false)
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "old.txt", fe.File)
	paths, _ := tree.Changed()
	assert.Empty(t, paths)

	// new.txt exists already.
	tree = NewTree(disk(map[string]string{"a.txt": ten, "old.txt": "gone\n", "new.txt": "x\n"}))
	require.ErrorAs(t, tree.Apply(p, false), &fe)
	assert.Equal(t, "new.txt", fe.File)

	// old.txt holds more than the patch deletes.
	tree = NewTree(disk(map[string]string{"a.txt": ten, "old.txt": "gone\nand more\n"}))
	require.ErrorAs(t, tree.Apply(p, false), &fe)
	assert.Contains(t, fe.Reason, "more than the patch removes")

	// A base that cannot be read is an error, not a missing file.
	tree = NewTree(func(string) ([]byte, error) { return nil, errors.New("disk on fire") })
	require.ErrorContains(t, tree.Apply(p, false), "disk on fire")
}

func TestZeroContextHunkAppliesOnlyAtItsLine(t *testing.T) {
	const zero = "--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+inserted\n"
	p, err := Parse("zero.patch", []byte(zero))
	require.NoError(t, err)
	out, err := Apply("zero.patch", Text{Data: []byte("a\nb\nc\n")}, p.Files[0], false)
	require.NoError(t, err)
	assert.Equal(t, "a\nb\ninserted\nc\n", string(out.Data))
	_, err = Apply("zero.patch", Text{Data: []byte("a\n")}, p.Files[0], false)
	require.Error(t, err)
}

func TestLocateFindsTheAddedLines(t *testing.T) {
	p, err := Parse("change.patch", []byte(change))
	require.NoError(t, err)
	patched := "x\none\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nnine and a half\nten\n"
	assert.Equal(t, 2, Locate([]byte(patched), p.Files[0].Hunks[0], true), "shifted by one line")
	assert.Equal(t, 8, Locate([]byte(patched), p.Files[0].Hunks[1], true))
	assert.Equal(t, 0, Locate([]byte(ten), p.Files[0].Hunks[0], true), "not applied")
	assert.Equal(t, 1, Locate([]byte(ten), p.Files[0].Hunks[0], false))
}

func TestParsePlainDiffNamesAsPatchP1(t *testing.T) {
	p, err := Parse("plain.patch", []byte("--- a/src/x.cc\n+++ b/src/x.cc\n@@ -1 +1 @@\n-a\n+b\n"))
	require.NoError(t, err)
	assert.Equal(t, "src/x.cc", p.Files[0].OldName)
	assert.Equal(t, "src/x.cc", p.Files[0].NewName)
}
