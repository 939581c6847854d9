package driver

// Adopting guardlint on a tree that already breaks some invariants: a
// baseline records today's findings so that only new ones fail, and
// -new-from-rev fails only findings on lines changed since a revision.
// docs/adopting.md walks through both.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
)

// Status is what a finding is to a run that compares it with the past.
type Status string

// The statuses. A run with neither a baseline nor -new-from-rev has only
// new findings.
const (
	// StatusNew: not in the baseline and, under -new-from-rev, on a
	// changed line. It fails the run, at its severity.
	StatusNew Status = "new"
	// StatusBaselined: recorded in the baseline; printed, never fails.
	StatusBaselined Status = "baselined"
	// StatusUnchanged: under -new-from-rev, on a line not changed since
	// the revision; printed, never fails.
	StatusUnchanged Status = "unchanged"
)

// Fingerprints returns a fingerprint per finding that survives line
// shifts and edits elsewhere in the file: a hash of the invariant id, the
// file relative to root, the text of the finding's line with its
// whitespace collapsed, and the finding's rank among the findings with
// those three (the second identical line of a file keeps its own
// fingerprint). Line and column numbers are not part of it, nor is the
// message, which quotes positions. SARIF's partialFingerprints and the
// baseline use the same value.
func Fingerprints(root string, fs []core.Finding) []string {
	lines := &lineCache{files: map[string][][]byte{}}
	out := make([]string, len(fs))
	seen := map[string]int{}
	for i, f := range fs {
		file, _ := relPath(root, f.Pos.Filename)
		text := ""
		if validPos(f.Pos) {
			text = lines.text(f.Pos.Filename, f.Pos.Line)
		}
		if f.Pos.Filename == "" {
			text = f.Message // a finding about the run as a whole
		}
		key := f.ID + "\x00" + file + "\x00" + text
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", key, n))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// text is a line of a file with its whitespace collapsed, or "" when the
// file or line cannot be read.
func (c *lineCache) text(file string, line int) string {
	ls, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			ls = bytes.SplitAfter(data, []byte("\n"))
		}
		c.files[file] = ls
	}
	if line < 1 || line > len(ls) {
		return ""
	}
	return strings.Join(strings.Fields(string(ls[line-1])), " ")
}

// BaselineVersion is the version of the baseline file's format.
const BaselineVersion = 1

// Baseline is a baseline file: the findings a team accepted when it
// adopted guardlint, to be fixed over time.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding. ID, File and Fingerprint match
// it; Line and Message are for the reader of the file and of a diff of it.
type BaselineEntry struct {
	ID          string `json:"id"`
	File        string `json:"file"`
	Fingerprint string `json:"fingerprint"`
	Line        int    `json:"line,omitempty"`
	Message     string `json:"message"`
}

// key is what matches an entry with a finding.
func (e BaselineEntry) key() string { return e.ID + "\x00" + e.File + "\x00" + e.Fingerprint }

// ReadBaseline reads a baseline file. A missing file is an error: a
// misspelt path would otherwise fail every accepted finding, or, worse,
// a CI step would pass a baseline nobody reads.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("baseline %s does not exist; write it with -write-baseline %s", path, path)
	}
	if err != nil {
		return nil, err
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline %s: version %d, want %d", path, b.Version, BaselineVersion)
	}
	return &b, nil
}

// WriteBaseline writes the findings as a baseline file, sorted as the
// findings are, so that fixing one removes its lines from a diff.
func WriteBaseline(path, root string, fs []core.Finding) error {
	b := Baseline{Version: BaselineVersion, Findings: []BaselineEntry{}}
	for i, fp := range Fingerprints(root, fs) {
		b.Findings = append(b.Findings, entryOf(root, fs[i], fp))
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func entryOf(root string, f core.Finding, fp string) BaselineEntry {
	file, _ := relPath(root, f.Pos.Filename)
	return BaselineEntry{ID: f.ID, File: file, Fingerprint: fp, Line: f.Pos.Line, Message: f.Message}
}

// Compare marks the findings the baseline holds as baselined, in
// statuses (parallel to fs), and returns the entries no finding matched:
// the findings fixed since the baseline was written.
func (b *Baseline) Compare(root string, fs []core.Finding, statuses []Status) (fixed []BaselineEntry) {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.key()]++
	}
	for i, fp := range Fingerprints(root, fs) {
		k := entryOf(root, fs[i], fp).key()
		if left[k] > 0 {
			left[k]--
			statuses[i] = StatusBaselined
		}
	}
	for _, e := range b.Findings {
		if left[e.key()] > 0 {
			left[e.key()]--
			fixed = append(fixed, e)
		}
	}
	return fixed
}

// Baselined returns the findings that statuses mark baselined, for
// -write-baseline with -baseline: the file shrinks as findings are fixed
// and never takes in a new one.
func Baselined(fs []core.Finding, statuses []Status) []core.Finding {
	var out []core.Finding
	for i, f := range fs {
		if statuses[i] == StatusBaselined {
			out = append(out, f)
		}
	}
	return out
}
