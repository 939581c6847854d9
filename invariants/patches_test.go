package invariants_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const chainFile = `version: 1
patches:
  upstream: vendor/mlx
  series:
    - patches/0001-streams.patch
    - patches/0002-eval-lock.patch
invariants:
  - {id: a, why: w, lang: cpp, files: vendor/mlx/*.cc, function: f, call: {to: g}}
`

func TestLoadPatches(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "guardlint.yaml")
	require.NoError(t, os.WriteFile(p, []byte(chainFile), 0o644))
	set, err := registry.Load(p)
	require.NoError(t, err)
	chains := set.Chains()
	require.Len(t, chains, 1)
	c := chains[0]
	assert.Equal(t, filepath.Join(dir, "vendor/mlx"), c.Upstream)
	assert.Equal(t, invariants.Pos{File: p, Line: 3, Col: 13}, c.UpstreamPos)
	require.Len(t, c.Series, 2)
	assert.Equal(t, filepath.Join(dir, "patches/0002-eval-lock.patch"), c.Series[1].Path)
	assert.Equal(t, "patches/0002-eval-lock.patch", c.Series[1].Raw)
	assert.Equal(t, invariants.Pos{File: p, Line: 6, Col: 7}, c.Series[1].Pos)
}

func TestLoadPatchesErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"patches: {series: [a.patch]}", "x.yaml:2:10: patches: missing `upstream`"},
		{"patches: {upstream: up}", "x.yaml:2:10: patches: missing `series`"},
		{"patches: {upstream: up, series: []}", "x.yaml:2:33: patches: series must not be empty"},
		{"patches: {upstream: up, series: [a.patch, ./a.patch]}", "x.yaml:2:43: patches: series[1]: ./a.patch is listed twice (first at line 2)"},
		{"patches: {upstream: up, series: [a.patch], order: x}", "x.yaml:2:44: patches: unknown key \"order\""},
		{"patches: {upstream: 3, series: [a.patch]}", "x.yaml:2:21: patches: upstream must be a string"},
		{"patches: [a.patch]", "x.yaml:2:10: patches must be a mapping"},
	} {
		data := "version: 1\n" + tc.body + "\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: f, call: {to: g}}\n"
		_, _, err := invariants.Parse(registry.Specs(), "x.yaml", []byte(data), "")
		require.Error(t, err, tc.body)
		assert.Contains(t, err.Error(), tc.want, tc.body)
	}
}
