package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"os"
	"unicode/utf8"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Rule ids for findings that are not about one invariant. They contain a
// slash, which invariant ids cannot, so they never clash with one.
const (
	RuleSuppression = "guardlint/suppression" // a wrong or unused //guardlint:ignore
	RuleRun         = "guardlint/run"         // an invariants file the run could not check at all
	RulePatches     = "guardlint/patches"     // a patch of a chain that is missing or does not apply
)

// FingerprintKey names guardlint's fingerprint among a result's
// partialFingerprints; the /v1 changes if the fingerprint's recipe does.
const FingerprintKey = "guardlint/v1"

// InformationURI is the tool's home page in SARIF.
const InformationURI = "https://github.com/guardlint/guardlint"

// sarifSchema is the SARIF 2.1.0 schema's address, as logs name it.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// The log is written from these types rather than with a SARIF library's
// builder: the one at hand (go-sarif, which the tests still use to
// validate against the schema) writes every optional property with its
// "unset" value (index -1, empty arrays), which SARIF validators flag and
// which only inflate the log. Only what guardlint fills is declared.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool `json:"tool"`
		ColumnKind string    `json:"columnKind"`
		// OriginalURIBaseIDs describes %SRCROOT%, the base of every
		// relative location, without its absolute path (which would
		// name the machine's directories): a consumer resolves it to
		// its checkout.
		OriginalURIBaseIDs map[string]sarifBase `json:"originalUriBaseIds"`
		Results            []sarifResult        `json:"results"`
	}
	sarifBase struct {
		Description sarifText `json:"description"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string            `json:"id"`
		ShortDescription     sarifText         `json:"shortDescription"`
		FullDescription      sarifText         `json:"fullDescription"`
		Help                 sarifText         `json:"help"`
		HelpURI              string            `json:"helpUri,omitempty"`
		DefaultConfiguration sarifConfig       `json:"defaultConfiguration"`
		Properties           map[string]string `json:"properties,omitempty"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          sarifText       `json:"message"`
		Locations        []sarifLocation `json:"locations,omitempty"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		// PartialFingerprints carry Fingerprints' value, stable across
		// line shifts, so that a consumer tracks a result as the file
		// changes around it.
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		// BaselineState is new or unchanged in a run with -baseline or
		// -new-from-rev.
		BaselineState string `json:"baselineState,omitempty"`
	}
	// sarifLocation is a result's location, or (with an id and a
	// message) one of its related locations.
	sarifLocation struct {
		ID               int           `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifText    `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// SARIF writes r as a SARIF 2.1.0 log with one run: a rule per loaded
// invariant (id, the rule as its short description, the why as its full
// description, why and ref as its help, the ref as its help URI) and a
// result per finding, with the index of its rule, located relative to the
// repository root (uriBaseId %SRCROOT%). version is the tool's version,
// or "".
func SARIF(w io.Writer, r Report, version string) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "guardlint", Version: version, InformationURI: InformationURI, Rules: []sarifRule{}}},
		// Go columns count bytes; SARIF's default unit is UTF-16 code
		// units, which code hosts use to place the marker. Columns are
		// converted from the file's text (see utf16Column).
		ColumnKind:         "utf16CodeUnits",
		OriginalURIBaseIDs: map[string]sarifBase{"%SRCROOT%": {Description: sarifText{"the root of the repository the run checked"}}},
		Results:            []sarifResult{},
	}
	index := map[string]int{}
	addRule := func(rule sarifRule) {
		index[rule.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
	}
	if r.Set != nil {
		for _, inv := range r.Set.Invariants {
			addRule(invariantRule(r.Root, inv))
		}
	}
	lines := &lineCache{files: map[string][][]byte{}}
	fps := Fingerprints(r.Root, r.Findings)
	for i, f := range r.Findings {
		id := ruleOf(f, index)
		if _, ok := index[id]; !ok {
			addRule(otherRule(id))
		}
		res := sarifResult{RuleID: id, RuleIndex: index[id], Level: string(SeverityOf(f)), Message: sarifText{f.Message},
			PartialFingerprints: map[string]string{FingerprintKey: fps[i]}}
		switch r.status(i) {
		case StatusNew:
			res.BaselineState = "new"
		case StatusBaselined, StatusUnchanged:
			res.BaselineState = "unchanged"
		}
		if loc := location(r.Root, f.Pos, f.End, lines); loc != nil {
			res.Locations = []sarifLocation{*loc}
		}
		for _, rel := range f.Related {
			if loc := location(r.Root, rel.Pos, rel.Pos, lines); loc != nil {
				loc.ID, loc.Message = len(res.RelatedLocations)+1, &sarifText{rel.Message}
				res.RelatedLocations = append(res.RelatedLocations, *loc)
			}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// invariantRule is the rule of one invariant.
func invariantRule(root string, inv *invariants.Invariant) sarifRule {
	full := inv.Why
	if full == "" {
		full = core.Summary(inv)
	}
	help := "why: " + inv.Why
	if inv.Ref != "" {
		help += "; see " + inv.Ref
	}
	rule := sarifRule{
		ID:                   inv.ID,
		ShortDescription:     sarifText{core.Summary(inv)},
		FullDescription:      sarifText{full},
		Help:                 sarifText{help},
		DefaultConfiguration: sarifConfig{Level: string(SeverityOf(core.Finding{Invariant: inv}))},
		Properties:           map[string]string{"kind": string(inv.Kind())},
	}
	if isURI(inv.Ref) {
		rule.HelpURI = inv.Ref
	}
	if file, ok := relPath(root, inv.Pos.File); ok {
		rule.Properties["declared"] = fmt.Sprintf("%s:%d:%d", file, inv.Pos.Line, inv.Pos.Col)
	}
	return rule
}

// ruleOf returns the rule id of a finding: its invariant's, or one of the
// rules for findings that are not about one loaded invariant.
func ruleOf(f core.Finding, index map[string]int) string {
	if _, ok := index[f.ID]; ok && f.Invariant != nil {
		return f.ID
	}
	switch f.ID {
	case "suppression":
		return RuleSuppression
	case PatchChainID:
		return RulePatches
	case "":
		return RuleRun
	}
	return f.ID // an invariant outside r.Set; keep its id
}

// otherRule is the rule of findings that are not about a loaded
// invariant, with the descriptions code hosts show.
func otherRule(id string) sarifRule {
	short, full := "invariant "+id, "a finding of the invariant "+id+", which is not among the loaded invariants"
	switch id {
	case RuleSuppression:
		short = "a //guardlint:ignore comment that is wrong or suppresses nothing"
		full = "a //guardlint:ignore comment without a reason, naming no loaded invariant, or suppressing no finding; a suppression must say why and must still be needed"
	case RulePatches:
		short = "a patch of the chain that does not apply"
		full = "a patch of an invariants file's chain that is missing, does not parse, does not apply after the patches before it, or does not reverse-apply on the patched tree: the patched sources the invariants are checked on are not what the build makes"
	case RuleRun:
		short = "invariants the run could not check"
		full = "an invariants file none of whose invariants concerns the packages of the run (run on the wrong directory, or every package renamed): a run that checks nothing fails instead of passing"
	}
	return sarifRule{
		ID:                   id,
		ShortDescription:     sarifText{short},
		FullDescription:      sarifText{full},
		Help:                 sarifText{full + "; see " + InformationURI},
		DefaultConfiguration: sarifConfig{Level: "error"},
	}
}

// location is the place of a range, or nil when pos is no place.
func location(root string, pos, end token.Position, lines *lineCache) *sarifLocation {
	if !validPos(pos) {
		return nil
	}
	var al sarifArtifact
	if rel, ok := relPath(root, pos.Filename); ok {
		al = sarifArtifact{URI: pathURI(rel), URIBaseID: "%SRCROOT%"}
	} else {
		al = sarifArtifact{URI: (&url.URL{Scheme: "file", Path: rel}).String()}
	}
	region := sarifRegion{StartLine: pos.Line, StartColumn: lines.utf16Column(pos.Filename, pos.Line, pos.Column)}
	if validPos(end) && end.Filename == pos.Filename && end.Offset >= pos.Offset && (end.Line > pos.Line || end.Column > pos.Column) {
		region.EndLine, region.EndColumn = end.Line, lines.utf16Column(end.Filename, end.Line, end.Column)
	}
	return &sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: al, Region: region}}
}

// pathURI escapes a slash-separated relative path as a URI reference.
func pathURI(rel string) string {
	return (&url.URL{Path: rel}).EscapedPath()
}

// isURI reports whether s is an absolute URI, which helpUri must be; a
// ref such as "ADR-12" stays in the help text only.
func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
}

// lineCache holds the lines of the files findings point into.
type lineCache struct {
	files map[string][][]byte
}

// utf16Column converts a 1-based byte column on a 1-based line of file
// into a 1-based column in UTF-16 code units. When the file cannot be
// read (it changed, or is gone) the byte column is returned: exact for
// ASCII lines, which Go source mostly is.
func (c *lineCache) utf16Column(file string, line, col int) int {
	ls, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			ls = bytes.SplitAfter(data, []byte("\n"))
		}
		c.files[file] = ls
	}
	if line < 1 || line > len(ls) || col < 1 {
		return col
	}
	text := ls[line-1]
	if col-1 > len(text) {
		return col
	}
	units := 0
	for prefix := text[:col-1]; len(prefix) > 0; {
		r, size := utf8.DecodeRune(prefix)
		prefix = prefix[size:]
		units++
		if r >= 0x10000 {
			units++ // a surrogate pair
		}
	}
	return units + 1
}
