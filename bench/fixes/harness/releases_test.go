package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A release's copy is used only when it is the recorded blob: a file
// whose content differs, or that is present where the record says
// absent, is an error.
func TestCheckBlob(t *testing.T) {
	dir := t.TempDir()
	// git hash-object of "hello\n".
	const hello = "ce013625030ba8dba906f756967f9e9ca394464a"
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkBlob(dir, "a.go", hello, "v1.0.0"); err != nil {
		t.Errorf("the recorded blob: %v", err)
	}
	if err := checkBlob(dir, "b.go", "-", "v1.0.0"); err != nil {
		t.Errorf("absent and recorded absent: %v", err)
	}
	for _, c := range []struct{ path, blob, want string }{
		{"a.go", strings.Repeat("0", 40), "a.go in v1.0.0 is blob " + hello},
		{"a.go", "-", "a.go in v1.0.0 is blob " + hello + ", want -"},
		{"b.go", hello, "b.go is absent from v1.0.0"},
	} {
		err := checkBlob(dir, c.path, c.blob, "v1.0.0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkBlob(%s, %s) = %v, want an error with %q", c.path, c.blob, err, c.want)
		}
	}
}

// The lines of one commit are one release; a line that gives the same
// commit other versions is an error, not a second pair.
func TestReadReleases(t *testing.T) {
	head := "repo\tcommit\tmodule\tbefore\tafter\tpath\tbefore_blob\tafter_blob\n"
	write := func(body string) string {
		p := filepath.Join(t.TempDir(), "releases.tsv")
		if err := os.WriteFile(p, []byte(head+body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rels, err := readReleases(write("o/r\tc1\tm\tv1.0.0\tv1.0.1\ta.go\tb1\tb2\n" +
		"o/r\tc1\tm\tv1.0.0\tv1.0.1\tb.go\t-\tb3\n" +
		"o/r\tc2\tm\tv1.1.0\tv1.2.0\ta.go\tb4\tb5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 2 || len(rels[0].Files) != 2 || rels[0].Files[1] != (releaseFile{"b.go", "-", "b3"}) || rels[1].Before != "v1.1.0" {
		t.Errorf("readReleases = %+v", rels)
	}
	_, err = readReleases(write("o/r\tc1\tm\tv1.0.0\tv1.0.1\ta.go\tb1\tb2\n" +
		"o/r\tc1\tm\tv1.0.0\tv1.0.2\tb.go\t-\tb3\n"))
	if err == nil || !strings.Contains(err.Error(), ":3: commit c1: module or versions differ") {
		t.Errorf("a commit with two pairs: %v", err)
	}
}

// The row compared is the commit's row of results.md, found by the
// commit's ten first digits in its column.
func TestRecordedRow(t *testing.T) {
	md := "| r | `0123456789` | a |\n| r | `abcdefabcd` | b |\n"
	if got := recordedRow(md, "abcdefabcdef0123"); got != "| r | `abcdefabcd` | b |" {
		t.Errorf("recordedRow = %q", got)
	}
	if got := recordedRow(md, "ffffffffffff"); got != "" {
		t.Errorf("recordedRow of a missing commit = %q", got)
	}
}
