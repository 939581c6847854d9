package driver

import (
	_ "embed"
	"encoding/json"
	"go/token"
	"io"

	"github.com/guardlint/guardlint/analyzers/core"
)

// JSONVersion is the version of the -json schema. It changes only when a
// field is removed or changes meaning; new fields may appear within a
// version.
const JSONVersion = 1

// JSONSchema is the JSON Schema (draft 2020-12) of the -json document,
// for consumers that validate what they read.
//
//go:embed json.schema.json
var JSONSchema []byte

// jsonReport is the -json document.
type jsonReport struct {
	Version  int           `json:"version"`
	Findings []jsonFinding `json:"findings"`
}

// jsonFinding is one finding. Lines and columns are 1-based; columns
// count bytes, as Go's do. Fields that do not apply are omitted.
type jsonFinding struct {
	// ID is the invariant id, "suppression" for a wrong or unused
	// //guardlint:ignore, or omitted for an error of the run as a whole.
	ID string `json:"id,omitempty"`
	// Kind is the invariant's rule kind: call, hold, owns, guarded_by, forbid, order,
	// requires, excludes, lock_order, never_acquires (json.schema.json
	// lists them).
	Kind string `json:"kind,omitempty"`
	// Severity is the invariant's severity (error, warning or note);
	// error for a finding about no invariant.
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	EndLine  int    `json:"end_line,omitempty"`
	EndCol   int    `json:"end_column,omitempty"`
	Message  string `json:"message"`
	Why      string `json:"why,omitempty"`
	Ref      string `json:"ref,omitempty"`
	// Declared is where the invariant is declared in its invariants file.
	Declared *jsonPos `json:"declared,omitempty"`
	// Related are the finding's other places, each with what it is
	// there: the line of the patch that added a patched line.
	Related []jsonRelated `json:"related,omitempty"`
	// Fingerprint identifies the finding across line shifts (see
	// Fingerprints); the baseline matches on it.
	Fingerprint string `json:"fingerprint"`
	// Status is new, baselined or unchanged, in a run with -baseline or
	// -new-from-rev.
	Status Status `json:"status,omitempty"`
}

// jsonRelated is another place a finding concerns.
type jsonRelated struct {
	jsonPos
	Message string `json:"message"`
}

// jsonPos is a position in a file.
type jsonPos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// JSON writes r as one indented JSON document (see docs/output.md).
func JSON(w io.Writer, r Report) error {
	doc := jsonReport{Version: JSONVersion, Findings: []jsonFinding{}}
	fps := Fingerprints(r.Root, r.Findings)
	for i, f := range r.Findings {
		jf := jsonFindingOf(r.Root, f)
		jf.Fingerprint, jf.Status = fps[i], r.status(i)
		doc.Findings = append(doc.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// jsonFindingOf converts one finding, with paths relative to root.
func jsonFindingOf(root string, f core.Finding) jsonFinding {
	out := jsonFinding{ID: f.ID, Severity: string(SeverityOf(f)), Message: f.Message}
	if f.Pos.Filename != "" {
		out.File, _ = relPath(root, f.Pos.Filename)
		out.Line, out.Column = f.Pos.Line, f.Pos.Column
		end := f.End
		if !end.IsValid() || end.Filename != f.Pos.Filename {
			end = f.Pos
		}
		out.EndLine, out.EndCol = end.Line, end.Column
	}
	for _, r := range f.Related {
		if !validPos(r.Pos) {
			continue
		}
		file, _ := relPath(root, r.Pos.Filename)
		out.Related = append(out.Related, jsonRelated{jsonPos{File: file, Line: r.Pos.Line, Column: max(r.Pos.Column, 1)}, r.Message})
	}
	if inv := f.Invariant; inv != nil {
		out.Kind = string(inv.Kind())
		out.Why = inv.Why
		out.Ref = inv.Ref
		if inv.Pos.File != "" {
			file, _ := relPath(root, inv.Pos.File)
			out.Declared = &jsonPos{File: file, Line: inv.Pos.Line, Column: inv.Pos.Col}
		}
	}
	return out
}

// validPos reports whether p names a place in a file.
func validPos(p token.Position) bool { return p.Filename != "" && p.Line > 0 }
