package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkout copies what a kind is built and tested from (the module's
// go.mod and go.sum, analyzers/, invariants/, cmd/, docs/) into a temporary
// tree.
func checkout(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../..")
	require.NoError(t, err)
	dst := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum", "analyzers", "invariants", "cmd", "docs"} {
		require.NoError(t, filepath.WalkDir(filepath.Join(src, p), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		}))
	}
	return dst
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// TestScaffoldBuildsAndRegisters writes a kind into a copy of this
// checkout and checks what a person adding a kind relies on: the tree
// builds with and without cgo and vets clean, the kind's own tests pass
// (they pin the stubs' loud failures), and the registry's tests (schema,
// completeness, facet table) and the layer test accept it.
func TestScaffoldBuildsAndRegisters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the linter")
	}
	root := checkout(t)
	k, err := newKind("calls_twice", "call")
	require.NoError(t, err)
	written, err := k.write(root, true)
	require.NoError(t, err)
	assert.Len(t, written, len(files)+4, "files written and edited: %v", written)
	assert.Contains(t, written, "analyzers/kinds/callstwice/callstwice.go")
	assert.Contains(t, written, "invariants/schema.json")

	goCmd(t, root, "build", "./analyzers/...")
	goCmd(t, root, "vet", "./analyzers/kinds/callstwice", "./analyzers/registry")
	cmd := exec.Command("go", "build", "./analyzers/registry")
	cmd.Dir, cmd.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "CGO_ENABLED=0 go build ./analyzers/registry:\n%s", out)
	goCmd(t, root, "test", "./analyzers/kinds/callstwice", "./analyzers/registry", "./analyzers/layers")

	schema, err := os.ReadFile(filepath.Join(root, schemaFile))
	require.NoError(t, err)
	assert.Contains(t, string(schema), `"calls_twice"`)

	// A second run refuses to overwrite the kind and leaves the tree as it was.
	before, err := os.ReadFile(filepath.Join(root, registryFile))
	require.NoError(t, err)
	_, err = k.write(root, false)
	require.ErrorContains(t, err, "exists")
	after, err := os.ReadFile(filepath.Join(root, registryFile))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

func TestKindNames(t *testing.T) {
	k, err := newKind("guarded_by", "lock")
	require.NoError(t, err)
	assert.Equal(t, &kind{Name: "guarded_by", Pkg: "guardedby", Key: "lock", Field: "Lock", TestPkg: "guardedbydata"}, k)
	k, err = newKind("calls_once", "max_calls")
	require.NoError(t, err)
	assert.Equal(t, "MaxCalls", k.Field)
	for _, bad := range []string{"Guarded", "guarded-by", "_x", "x_", "9x", "", "go", "func"} {
		_, err := newKind(bad, "call")
		assert.Error(t, err, bad)
	}
	_, err = newKind("ok", "Bad")
	assert.Error(t, err)
}

// TestEditsFailClosed: a registry without the list to extend is an error
// that names the way out, not a kind left half registered.
func TestEditsFailClosed(t *testing.T) {
	k, err := newKind("calls_twice", "call")
	require.NoError(t, err)
	_, err = k.register([]byte("package registry\n\nvar Other = []int{\n\t1,\n}\n"))
	require.ErrorIs(t, err, errNoAnchor)
	_, err = k.addDocs([]byte("# Invariants\n"))
	require.ErrorIs(t, err, errNoAnchor)
}
