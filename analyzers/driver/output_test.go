package driver

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"

	"github.com/guardlint/guardlint/analyzers/driver/sarifcheck"
	"github.com/guardlint/guardlint/invariants"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirtyReport runs guardlint over testdata/dirty: a reverted retain, a
// stale invariant, a suppression without a reason, and a finding after
// non-ASCII text. Paths are relative to the module, as if it were the
// repository root.
func dirtyReport(t *testing.T) Report {
	t.Helper()
	dir, err := filepath.Abs("testdata/dirty")
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Findings, 4)
	return Report{Root: dir, Set: set, Findings: res.Findings}
}

// TestJSON checks the whole -json document of a run with four findings.
func TestJSON(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, dirtyReport(t)))
	assert.JSONEq(t, `{
  "version": 1,
  "findings": [
    {
      "id": "renamed", "kind": "hold", "severity": "error", "fingerprint": "d8829db7edd5141d836e1e96934c48d5",
      "file": "guardlint.yaml", "line": 16, "column": 15, "end_line": 16, "end_column": 15,
      "message": "invariant renamed: cannot verify: target p.Synchronize not found in package example.com/dirty/p: Synchronize is not declared in package example.com/dirty/p (why: the target was renamed)",
      "why": "the target was renamed",
      "declared": {"file": "guardlint.yaml", "line": 14, "column": 5}
    },
    {
      "id": "encoder-retained", "kind": "call", "severity": "error", "fingerprint": "83b3369c61dbae37fe9286bb9f49fbd3",
      "file": "p/p.go", "line": 14, "column": 30, "end_line": 14, "end_column": 48,
      "message": "invariant encoder-retained: (*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain, and contains no live call of it (why: the pool hands encoders out at +0; see https://example.com/adr/1)",
      "why": "the pool hands encoders out at +0",
      "ref": "https://example.com/adr/1",
      "declared": {"file": "guardlint.yaml", "line": 4, "column": 5}
    },
    {
      "id": "suppression", "severity": "error", "fingerprint": "4684eec0a519b6fb407e9bf2af481cad",
      "file": "p/p.go", "line": 28, "column": 2, "end_line": 28, "end_column": 32,
      "message": "guardlint:ignore eval-locked needs a reason after the id"
    },
    {
      "id": "no-encoder-in-size", "kind": "forbid", "severity": "error", "fingerprint": "198d481ecc084f2d95b5c8a41167a4c3",
      "file": "p/p.go", "line": 32, "column": 39, "end_line": 32, "end_column": 61,
      "message": "invariant no-encoder-in-size: p.Größe must not call (*p.CommandBuffer).getOrCreateEncoder (why: sizes are computed without touching encoders)",
      "why": "sizes are computed without touching encoders",
      "declared": {"file": "guardlint.yaml", "line": 18, "column": 5}
    }
  ]
}`, buf.String())
}

// TestJSONNoFindings checks that a clean run still prints a document.
func TestJSONNoFindings(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, Report{Root: "/r", Set: &invariants.Set{}}))
	assert.JSONEq(t, `{"version": 1, "findings": []}`, buf.String())
}

// TestSARIF checks the log against the SARIF 2.1.0 schema (go-sarif
// carries it and validates offline) and checks what code scanning shows:
// rules with their why and ref, results at repository-relative places.
func TestSARIF(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, SARIF(&buf, dirtyReport(t), "v1.2.3"))

	require.NoError(t, sarifcheck.Validate(buf.Bytes()))
	log, err := sarif.FromBytes(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	assert.Equal(t, "guardlint", *run.Tool.Driver.Name)
	assert.Equal(t, "v1.2.3", *run.Tool.Driver.Version)
	assert.Equal(t, "utf16CodeUnits", *run.ColumnKind)

	rules := map[string]*sarif.ReportingDescriptor{}
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		rules[*r.ID] = r
		ids = append(ids, *r.ID)
		// What GitHub code scanning requires of every rule.
		require.NotNil(t, r.ShortDescription, *r.ID)
		require.NotNil(t, r.FullDescription, *r.ID)
		require.NotNil(t, r.Help, *r.ID)
		assert.NotEmpty(t, *r.ShortDescription.Text, *r.ID)
		assert.NotEmpty(t, *r.FullDescription.Text, *r.ID)
		assert.NotEmpty(t, *r.Help.Text, *r.ID)
	}
	// Unset properties are left out, not written as -1 or [].
	assert.NotContains(t, buf.String(), "-1")
	assert.NotContains(t, buf.String(), "[]")
	assert.Equal(t, []string{"encoder-retained", "eval-locked", "renamed", "no-encoder-in-size", RuleSuppression}, ids)
	er := rules["encoder-retained"]
	assert.Equal(t, "(*p.CommandBuffer).getOrCreateEncoder must call (*p.Encoder).retain", *er.ShortDescription.Text)
	assert.Equal(t, "the pool hands encoders out at +0", *er.FullDescription.Text)
	assert.Equal(t, "https://example.com/adr/1", *er.HelpURI)
	assert.Equal(t, "call", er.Properties.Properties["kind"])
	assert.Equal(t, "guardlint.yaml:4:5", er.Properties.Properties["declared"])
	// A ref that is not a URI stays out of helpUri, which must be one.
	el := rules["eval-locked"]
	assert.Nil(t, el.HelpURI)
	assert.Equal(t, "why: evaluations interleave; see ADR-7", *el.Help.Text)
	assert.Equal(t, "p.Eval must hold p.evalMu for the body", *el.ShortDescription.Text)

	type place struct {
		Rule, URI                  string
		Line, Col, EndLine, EndCol int
	}
	var got []place
	for _, res := range run.Results {
		require.Len(t, res.Locations, 1)
		pl := res.Locations[0].PhysicalLocation
		assert.Equal(t, "%SRCROOT%", *pl.ArtifactLocation.URIBaseID)
		assert.Equal(t, *res.RuleID, *run.Tool.Driver.Rules[res.RuleIndex].ID)
		assert.Equal(t, "error", res.Level)
		p := place{Rule: *res.RuleID, URI: *pl.ArtifactLocation.URI, Line: *pl.Region.StartLine, Col: *pl.Region.StartColumn}
		if pl.Region.EndLine != nil {
			p.EndLine, p.EndCol = *pl.Region.EndLine, *pl.Region.EndColumn
		}
		got = append(got, p)
	}
	assert.Equal(t, []place{
		{"renamed", "guardlint.yaml", 16, 15, 0, 0},
		{"encoder-retained", "p/p.go", 14, 30, 14, 48},
		{RuleSuppression, "p/p.go", 28, 2, 28, 32},
		// "func Größe() { var b CommandBuffer; " is 38 bytes but 36
		// UTF-16 code units: ö and ß take two bytes each.
		{"no-encoder-in-size", "p/p.go", 32, 37, 32, 59},
	}, got)
	assert.Contains(t, *run.Results[1].Message.Text, "invariant encoder-retained:")
}

// TestSARIFValidationBites makes sure the schema check above can fail: a
// log that breaks the schema is refused.
func TestSARIFValidationBites(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, SARIF(&buf, dirtyReport(t), ""))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	region := doc["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
	region["startLine"] = 0 // SARIF lines start at 1
	broken, err := json.Marshal(doc)
	require.NoError(t, err)
	assert.ErrorContains(t, sarifcheck.Validate(broken), "startLine")
}

// TestRepoRoot checks where repository-relative paths start.
func TestRepoRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	assert.Equal(t, sub, RepoRoot(sub), "outside a repository: the directory itself")
	require.NoError(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	assert.Equal(t, root, RepoRoot(sub))
	// A worktree has a .git file.
	wt := filepath.Join(root, "a")
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: elsewhere\n"), 0o644))
	assert.Equal(t, wt, RepoRoot(sub))
}

// TestFileOutsideRoot checks that a file outside the root keeps an
// absolute file URI.
func TestFileOutsideRoot(t *testing.T) {
	rep := dirtyReport(t)
	rep.Root = filepath.Join(rep.Root, "p") // guardlint.yaml lies outside
	var buf bytes.Buffer
	require.NoError(t, SARIF(&buf, rep, ""))
	require.NoError(t, sarifcheck.Validate(buf.Bytes()))
	log, err := sarif.FromBytes(buf.Bytes())
	require.NoError(t, err)
	al := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation
	assert.Nil(t, al.URIBaseID)
	assert.Regexp(t, `^file:///.*/testdata/dirty/guardlint.yaml$`, *al.URI)
	loc := log.Runs[0].Results[1].Locations[0].PhysicalLocation.ArtifactLocation
	assert.Equal(t, "p.go", *loc.URI)
}

// TestRunLevelFinding checks a finding about a whole invariants file (no
// invariant id): JSON leaves id and kind out, SARIF files it under
// guardlint/run.
func TestRunLevelFinding(t *testing.T) {
	dir, err := filepath.Abs("testdata/dirty")
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	// The engine reports this when none of a file's packages was loaded,
	// e.g. guardlint run on the wrong directory.
	pos := token.Position{Filename: filepath.Join(dir, "guardlint.yaml"), Line: 1, Column: 1}
	rep := Report{Root: dir, Set: set, Findings: []core.Finding{{
		Pos: pos, End: pos,
		Message: "cannot verify: no package that guardlint.yaml names was loaded by ./other/...",
	}}}

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, rep))
	assert.JSONEq(t, `{"version": 1, "findings": [{
		"file": "guardlint.yaml", "line": 1, "column": 1, "end_line": 1, "end_column": 1,
		"message": "cannot verify: no package that guardlint.yaml names was loaded by ./other/...",
		"severity": "error", "fingerprint": "d9408a42cd3876eaa74f088530ac9f07"}]}`, buf.String())

	buf.Reset()
	require.NoError(t, SARIF(&buf, rep, ""))
	require.NoError(t, sarifcheck.Validate(buf.Bytes()))
	log, err := sarif.FromBytes(buf.Bytes())
	require.NoError(t, err)
	run := log.Runs[0]
	require.Len(t, run.Results, 1)
	assert.Equal(t, RuleRun, *run.Results[0].RuleID)
	assert.Equal(t, RuleRun, *run.Tool.Driver.Rules[run.Results[0].RuleIndex].ID)
}

// TestJSONSchema validates real -json output against the embedded schema,
// and checks that the schema refuses a document that breaks it.
func TestJSONSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("json.schema.json", doc))
	schema, err := c.Compile("json.schema.json")
	require.NoError(t, err)
	validate := func(data []byte) error {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		require.NoError(t, err)
		return schema.Validate(inst)
	}
	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, dirtyReport(t)))
	require.NoError(t, validate(buf.Bytes()))
	// A requires finding (its kind) validates too.
	dir, err := filepath.Abs("../kinds/requires/testdata/module")
	require.NoError(t, err)
	set, err := Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, JSON(&buf, Report{Root: dir, Set: set, Findings: res.Findings}))
	assert.Contains(t, buf.String(), `"kind": "requires"`)
	require.NoError(t, validate(buf.Bytes()))

	for _, broken := range []string{
		`{"version": 2, "findings": []}`,
		`{"version": 1}`,
		`{"version": 1, "findings": [{"id": "x", "kind": "guard", "message": "m"}]}`,
		`{"version": 1, "findings": [{"id": "x", "file": "a.go", "message": "m"}]}`,
		`{"version": 1, "findings": [{"id": "x", "file": "a.go", "line": 0, "column": 1, "end_line": 1, "end_column": 1, "message": "m"}]}`,
	} {
		assert.Error(t, validate([]byte(broken)), broken)
	}
}

// TestSARIFDescribesEveryKind checks that a requires invariant, like
// every other kind, gets its rule as its SARIF short description: it got
// its id ("invariant dispatch-locked") when the description was written
// apart from the kinds.
func TestSARIFDescribesEveryKind(t *testing.T) {
	dir, err := filepath.Abs("../kinds/requires/testdata/module")
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, SARIF(&buf, Report{Root: dir, Set: set}, ""))
	log, err := sarif.FromBytes(buf.Bytes(), sarif.WithStrictValidation())
	require.NoError(t, err)
	rules := log.Runs[0].Tool.Driver.Rules
	require.Len(t, rules, 1)
	assert.Equal(t, "every call of (*gpu.Encoder).dispatchLocked must hold gpu.evalMu", *rules[0].ShortDescription.Text)
}

// TestRelatedLocations runs over testdata/patchedline, whose patch adds a
// function that does not take the lock: the finding on the patched file
// carries the patch's line as a related location, in -json (valid
// against its schema) and as a SARIF relatedLocation (valid SARIF).
func TestRelatedLocations(t *testing.T) {
	dir, err := filepath.Abs("testdata/patchedline")
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	rep := Report{Root: dir, Set: set, Findings: res.Findings}

	var buf bytes.Buffer
	require.NoError(t, JSON(&buf, rep))
	var doc struct {
		Findings []struct {
			File    string
			Line    int
			Related []map[string]any
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	require.Len(t, doc.Findings, 1)
	assert.Equal(t, "upstream/src/registry.cc", doc.Findings[0].File)
	assert.Equal(t, []map[string]any{{
		"file": "patches/0001-remove.patch", "line": 11.0, "column": 1.0,
		"message": "the patch line that adds the finding's line",
	}}, doc.Findings[0].Related)
	schema := jsonschema.NewCompiler()
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	require.NoError(t, err)
	require.NoError(t, schema.AddResource("json.schema.json", sdoc))
	compiled, err := schema.Compile("json.schema.json")
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.NoError(t, compiled.Validate(inst))
	for _, broken := range []string{
		`{"version": 1, "findings": [{"message": "m", "related": []}]}`,
		`{"version": 1, "findings": [{"message": "m", "related": [{"file": "a.patch", "line": 1, "column": 1}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(broken)))
		require.NoError(t, err)
		assert.Error(t, compiled.Validate(inst), broken)
	}

	buf.Reset()
	require.NoError(t, SARIF(&buf, rep, ""))
	require.NoError(t, sarifcheck.Validate(buf.Bytes()))
	log, err := sarif.FromBytes(buf.Bytes())
	require.NoError(t, err)
	result := log.Runs[0].Results[0]
	require.Len(t, result.RelatedLocations, 1)
	rel := result.RelatedLocations[0]
	assert.Equal(t, 1, rel.ID)
	assert.Equal(t, "patches/0001-remove.patch", *rel.PhysicalLocation.ArtifactLocation.URI)
	assert.Equal(t, 11, *rel.PhysicalLocation.Region.StartLine)
	assert.Equal(t, "the patch line that adds the finding's line", *rel.Message.Text)
	assert.Equal(t, "upstream/src/registry.cc", *result.Locations[0].PhysicalLocation.ArtifactLocation.URI)
}
