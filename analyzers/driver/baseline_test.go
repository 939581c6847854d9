package driver

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFingerprints checks that a fingerprint survives lines inserted
// above and edits to other lines, changes with the finding's own line,
// and tells two identical lines of a file apart by their rank.
func TestFingerprints(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x.cc")
	at := func(line int) core.Finding {
		return core.Finding{ID: "nf", Pos: token.Position{Filename: file, Line: line, Column: 6}, Message: "moves with the line"}
	}
	write := func(src string) {
		require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	}
	write("void a() {}\nvoid b() {}\nvoid b() {}\n")
	before := Fingerprints(dir, []core.Finding{at(1), at(2), at(3)})
	assert.Len(t, before[0], 32)
	assert.NotEqual(t, before[1], before[2], "identical lines have ranks")

	write("// new\n\n  void a()   {}\nvoid b() {}\nint x;\nvoid b() {}\n")
	after := Fingerprints(dir, []core.Finding{at(3), at(4), at(6)})
	assert.Equal(t, before, after, "shifted lines, changed whitespace and other lines keep the fingerprints")

	write("void a() { flush(); }\n")
	assert.NotEqual(t, before[0], Fingerprints(dir, []core.Finding{at(1)})[0], "an edit of the line itself is another finding")
	assert.NotEqual(t, before[0], Fingerprints(dir, []core.Finding{{ID: "other", Pos: at(1).Pos}})[0], "another invariant")
}

// TestSARIFFingerprintsAndBase checks that every SARIF result carries the
// fingerprint the baseline uses, and that %SRCROOT% is described without
// the machine's path.
func TestSARIFFingerprintsAndBase(t *testing.T) {
	rep := dirtyReport(t)
	var buf bytes.Buffer
	require.NoError(t, SARIF(&buf, rep, "test"))
	for _, fp := range Fingerprints(rep.Root, rep.Findings) {
		assert.Contains(t, buf.String(), `"guardlint/v1": "`+fp+`"`)
	}
	assert.Contains(t, buf.String(), `"originalUriBaseIds": {`)
	assert.NotContains(t, buf.String(), rep.Root)
}
