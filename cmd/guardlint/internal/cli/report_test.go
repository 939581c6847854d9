package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/driver/sarifcheck"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRel is the path of a file under testdata as -json and -sarif print
// it: relative to the repository root.
func repoRel(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	rel, err := filepath.Rel(driver.RepoRoot(filepath.Dir(abs)), abs)
	require.NoError(t, err)
	return filepath.ToSlash(rel)
}

// TestJSONFlag runs -json over a module with findings.
func TestJSONFlag(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/dirty", "-json", "./...")
	assert.Equal(t, ExitFindings, code, errOut)
	var doc struct {
		Version  int
		Findings []struct {
			ID, Kind, File, Why, Ref, Message string
			Line, Column                      int
			EndLine                           int `json:"end_line"`
			EndColumn                         int `json:"end_column"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	assert.Equal(t, 1, doc.Version)
	require.Len(t, doc.Findings, 2)
	gone, retained := doc.Findings[0], doc.Findings[1]
	assert.Equal(t, "gone", gone.ID)
	assert.Equal(t, repoRel(t, "testdata/dirty/guardlint.yaml"), gone.File)
	assert.Equal(t, "encoder-retained", retained.ID)
	assert.Equal(t, "call", retained.Kind)
	assert.Equal(t, repoRel(t, "testdata/dirty/p/p.go"), retained.File)
	assert.Equal(t, []int{11, 26, 11, 44}, []int{retained.Line, retained.Column, retained.EndLine, retained.EndColumn})
	assert.Equal(t, "the pool hands encoders out at +0", retained.Why)
	assert.Equal(t, "https://example.com/adr/1", retained.Ref)
}

// TestJSONFlagClean runs -json over a clean module.
func TestJSONFlagClean(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/clean", "-json")
	assert.Equal(t, ExitClean, code, errOut)
	assert.JSONEq(t, `{"version": 1, "findings": []}`, out)
}

// TestSARIFFlag runs -sarif and validates the log against the schema.
func TestSARIFFlag(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/dirty", "-sarif", "./...")
	assert.Equal(t, ExitFindings, code, errOut)
	require.NoError(t, sarifcheck.Validate([]byte(out)))
	log, err := sarif.FromBytes([]byte(out))
	require.NoError(t, err)
	res := log.Runs[0].Results
	require.Len(t, res, 2)
	assert.Equal(t, "encoder-retained", *res[1].RuleID)
	assert.Equal(t, repoRel(t, "testdata/dirty/p/p.go"), *res[1].Locations[0].PhysicalLocation.ArtifactLocation.URI)
}

// TestOutputFlagsExclusive checks that -json and -sarif cannot be combined.
func TestOutputFlagsExclusive(t *testing.T) {
	code, out, errOut := run(t, noEnv, "-C", "testdata/clean", "-json", "-sarif")
	assert.Equal(t, ExitConfig, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "guardlint: -json and -sarif exclude each other")
}

// TestJSONFlagBrokenConfig checks that a configuration error is not
// mistaken for a clean run: exit 2, the errors on stderr, and no document
// on stdout.
func TestJSONFlagBrokenConfig(t *testing.T) {
	for _, flag := range []string{"-json", "-sarif"} {
		code, out, errOut := run(t, noEnv, "-C", "testdata/broken", flag)
		assert.Equal(t, ExitConfig, code, flag)
		assert.Empty(t, out, flag)
		assert.Contains(t, errOut, `guardlint.yaml:7:5: invariant: unknown key "colour"`, flag)

		code, out, errOut = run(t, noEnv, "-C", noConfigRepo(t), flag)
		assert.Equal(t, ExitConfig, code, flag)
		assert.Empty(t, out, flag)
		assert.Contains(t, errOut, "guardlint: no invariants", flag)
	}
}
