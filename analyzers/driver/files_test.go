package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunReadsThroughFiles checks Go and C++ sources seen through a view:
// a replaced Go file and a replaced C++ file are checked as the view has
// them, and a removed Go file leaves the package as if it were deleted.
func TestRunReadsThroughFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	write("go.mod", "module example.com/view\n\ngo 1.22\n")
	run := write("p/run.go", "package p\n\nfunc Run() { helper() }\n")
	helper := write("p/helper.go", "package p\n\nfunc helper() {}\n")
	cc := write("native/enc.cc", "struct Encoder { void retain(); };\nvoid get(Encoder* enc) {\n  enc->retain();\n}\n")
	write("guardlint.yaml", `version: 1
invariants:
  - {id: go-run, why: run calls its helper, function: ./p.Run, call: {to: ./p.helper}}
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
	require.Empty(t, res.Findings)

	view := overlay.New()
	view.Replace(run, []byte("package p\n\nfunc Run() {}\n\nfunc other() { helper() }\n"))
	view.Replace(cc, []byte("struct Encoder { void retain(); };\nvoid get(Encoder* enc) {\n  // enc->retain();\n}\n"))
	res, err = Run(set, Options{Dir: dir, Files: view})
	require.NoError(t, err)
	var ids []string
	for _, f := range res.Findings {
		ids = append(ids, f.ID)
	}
	assert.ElementsMatch(t, []string{"go-run", "cc-retain"}, ids, "%v", res.Findings)

	// Removing helper.go leaves Run calling a function that no longer
	// exists: the package does not type-check, as after a real deletion.
	view = overlay.New()
	view.Remove(helper)
	_, err = Run(set, Options{Dir: dir, Files: view})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "undefined: helper")
}
