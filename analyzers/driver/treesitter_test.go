package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTreeSitterInSameRun checks that the C, C++, CUDA and Rust invariants
// are checked by the same run as the Go ones, with positions in the
// source, and that a file of only such invariants is not reported as
// naming no loaded package.
func TestTreeSitterInSameRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("go.mod", "module example.com/mixed\n\ngo 1.22\n")
	write("p/p.go", "package p\n\nfunc helper() {}\n\nfunc Run() { helper() }\n")
	write("native/enc.cc", "struct Encoder { void retain(); };\nvoid get(Encoder* enc) {\n  if (false) {\n    enc->retain();\n  }\n}\n")
	write("guardlint.yaml", `version: 1
include: [native.yaml]
invariants:
  - {id: go-run, why: run calls its helper, function: ./p.Run, call: {to: ./p.helper}}
`)
	write("native.yaml", `version: 1
invariants:
  - id: cc-retain
    why: encoders are handed out at +0
    lang: cpp
    files: native/*.cc
    function: get
    call: {to: enc->retain}
`)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1, "%v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, "cc-retain", f.ID)
	assert.Equal(t, "native/enc.cc:4:5: invariant cc-retain: get must call enc->retain; this call does not count: it is in a branch under a constant false condition (why: encoders are handed out at +0)", f.Format(dir))
	require.NotNil(t, f.Invariant)
	assert.Equal(t, invariants.LangCPP, f.Invariant.Lang)
}
