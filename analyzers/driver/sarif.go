package driver

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"unicode/utf8"

	"github.com/guardlint/guardlint/analyzers/core"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// Rule ids for findings that are not about one invariant. They contain a
// slash, which invariant ids cannot, so they never clash with one.
const (
	RuleSuppression = "guardlint/suppression" // a wrong or unused //guardlint:ignore
	RuleRun         = "guardlint/run"         // an invariants file the run could not check at all
)

// InformationURI is the tool's home page in SARIF.
const InformationURI = "https://github.com/guardlint/guardlint"

// SARIF writes r as a SARIF 2.1.0 log with one run: a rule per loaded
// invariant (id, the rule as its short description, the why as its full
// description, the ref as its help URI) and a result per finding, located
// relative to the repository root (uriBaseId %SRCROOT%). version is the
// tool's version, or "".
func SARIF(w io.Writer, r Report, version string) error {
	run := sarif.NewRunWithInformationURI("guardlint", InformationURI)
	if version != "" {
		run.Tool.Driver.WithVersion(version)
	}
	// Go columns count bytes; SARIF's default unit is UTF-16 code units,
	// which code hosts use to place the marker. Columns are converted
	// from the file's text (see utf16Column).
	run.WithColumnKind("utf16CodeUnits")
	if r.Set != nil {
		for _, inv := range r.Set.Invariants {
			rule := run.AddRule(inv.ID).
				WithShortDescription(sarif.NewMultiformatMessageString().WithText(Summary(inv))).
				WithFullDescription(sarif.NewMultiformatMessageString().WithText(inv.Why)).
				WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error"))
			help := "why: " + inv.Why
			if inv.Ref != "" {
				help += "; see " + inv.Ref
			}
			rule.WithHelp(sarif.NewMultiformatMessageString().WithText(help))
			if isURI(inv.Ref) {
				rule.WithHelpURI(inv.Ref)
			}
			props := sarif.NewPropertyBag()
			props.Add("kind", string(inv.Kind()))
			if file, ok := relPath(r.Root, inv.Pos.File); ok {
				props.Add("declared", fmt.Sprintf("%s:%d:%d", file, inv.Pos.Line, inv.Pos.Col))
			}
			rule.WithProperties(props)
		}
	}
	lines := &lineCache{files: map[string][][]byte{}}
	for _, f := range r.Findings {
		ruleID := ruleOf(run, f)
		res := run.CreateResultForRule(ruleID).
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(f.Message))
		if loc := location(r.Root, f, lines); loc != nil {
			res.AddLocation(loc)
		}
	}
	log := sarif.NewReport().AddRun(run)
	return log.PrettyWrite(w)
}

// ruleOf returns the rule id of a finding, adding the rule for findings
// that are not about one invariant the first time one appears.
func ruleOf(run *sarif.Run, f core.Finding) string {
	if f.Invariant != nil && run.GetRuleIndex(f.ID) >= 0 {
		return f.ID
	}
	id, short := RuleRun, "an invariants file whose packages the run did not load, or an invariant that cannot be checked"
	if f.ID == "suppression" {
		id, short = RuleSuppression, "a //guardlint:ignore comment without a reason, naming no loaded invariant, or suppressing nothing"
	} else if f.ID != "" {
		id = f.ID // an invariant outside r.Set; keep its id
		short = "invariant " + f.ID
	}
	if run.GetRuleIndex(id) < 0 {
		run.AddRule(id).
			WithShortDescription(sarif.NewMultiformatMessageString().WithText(short)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error"))
	}
	return id
}

// location is the finding's place, or nil for a finding without one.
func location(root string, f core.Finding, lines *lineCache) *sarif.Location {
	if !validPos(f.Pos) {
		return nil
	}
	al := sarif.NewArtifactLocation()
	if rel, ok := relPath(root, f.Pos.Filename); ok {
		al.WithURI(pathURI(rel)).WithURIBaseID("%SRCROOT%")
	} else {
		al.WithURI((&url.URL{Scheme: "file", Path: rel}).String())
	}
	region := sarif.NewRegion().
		WithStartLine(f.Pos.Line).
		WithStartColumn(lines.utf16Column(f.Pos.Filename, f.Pos.Line, f.Pos.Column))
	if end := f.End; validPos(end) && end.Filename == f.Pos.Filename && end.Offset >= f.Pos.Offset && (end.Line > f.Pos.Line || end.Column > f.Pos.Column) {
		region.WithEndLine(end.Line).WithEndColumn(lines.utf16Column(end.Filename, end.Line, end.Column))
	}
	return sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().WithArtifactLocation(al).WithRegion(region))
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
