package driver

import (
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// dottedModule is the resolver's sample module: packages whose import
// paths have a dot in their last element (nats.go, codec.v2, a/b.c),
// generic types, and gopkg.in/yaml.v3 as a dependency.
func dottedModule(t *testing.T) string {
	dir, err := filepath.Abs("../golang/resolve/testdata/dotted")
	require.NoError(t, err)
	return dir
}

func runDotted(t *testing.T, file string) ([]string, *invariants.Set, error) {
	t.Helper()
	dir := dottedModule(t)
	set, err := registry.Load(filepath.Join(dir, file))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	if err != nil {
		return nil, set, err
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Format(dir))
	}
	return got, set, nil
}

// TestDottedPaths checks that invariants written with the names go/types
// prints hold on the module: dotted paths (nats.go, codec.v2,
// gopkg.in/yaml.v3), type parameters, and the quoted form.
func TestDottedPaths(t *testing.T) {
	got, set, err := runDotted(t, "guardlint.yaml")
	require.NoError(t, err)
	assert.Empty(t, got)

	dir := dottedModule(t)
	listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Dir: dir}, "./...")
	require.NoError(t, err)
	wanted, _ := relevant(set, listed)
	assert.Equal(t, []string{
		"example.com/dotted/a/b", "example.com/dotted/a/b.c", "example.com/dotted/api.v1", "example.com/dotted/app",
		"example.com/dotted/codec.v2", "example.com/dotted/gen", "example.com/dotted/nats.go",
	}, wanted, "the packages of the targets, as resolved, and those that import codec.v2's lock")
}

// TestDottedPathsFire checks that the same names catch code that breaks
// them, and that names that do not resolve say so with the closest names.
func TestDottedPathsFire(t *testing.T) {
	got, _, err := runDotted(t, "dirty.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"api.v1/api.go:12:9: invariant decode-under-mu: exported function api.Step calls codec.Decode without holding codec.v2.mu (exclusive), and nothing shows its callers hold it: api.Step → codec.Decode; every call of codec.Decode needs the lock (why: w)",
		"app/app.go:8:12: invariant decode-under-mu: exported function app.Serve calls api.Step without holding codec.v2.mu (exclusive), and nothing shows its callers hold it: app.Serve → api.Step → codec.Decode; every call of codec.Decode needs the lock (why: w)",
		"codec.v2/codec.go:25:9: invariant no-marshal: codec.encodeLocked must not call yaml.Marshal (why: w)",
		"dirty.yaml:21:15: invariant method-typo: cannot verify: target (*nats.go.Conn).AuthRequird not found in package example.com/dotted/nats.go: Conn has no method or field AuthRequird; closest: AuthRequired (why: w)",
		"dirty.yaml:26:16: invariant callee-typo: cannot verify: callee yaml.v3.Marshall does not resolve from package example.com/dotted/codec.v2: Marshall is not declared in package gopkg.in/yaml.v3; closest: Marshal, Marshaler, Unmarshal (why: w)",
		"dirty.yaml:29:15: invariant map-arity: cannot verify: target (*gen.Map[K]).Get not found in package example.com/dotted/gen: Map has 2 type parameters [K, V], the name gives 1 (why: w)",
		"gen/gen.go:40:21: invariant len-locked: (*gen.Map[K, V]).Len must hold (gen.Map[K, V]).mu (exclusive) at every statement that does work, and never acquires it (why: w)",
		"gen/gen.go:56:10: invariant no-atomic-load: (*gen.Cache).Last must not call (*atomic.Pointer[T]).Load (why: w)",
	}, got)
}

// TestDottedPackageMissing checks that a dotted package path that no
// reading finds is reported with the closest import paths of the run
// (the finding of its own: the run does not add one for a configuration
// that nothing applies to, since the package does not exist at all).
func TestDottedPackageMissing(t *testing.T) {
	got, _, err := runDotted(t, "missing.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"missing.yaml:4:5: invariant package-typo: cannot verify: package example.com/dotted/codec not found; closest: example.com/dotted/codec.v2 (why: w)",
	}, got)
}

// TestDottedPathsAmbiguous checks that a name two packages of the run can
// hold stops the run with its position and the spellings that decide.
func TestDottedPathsAmbiguous(t *testing.T) {
	_, _, err := runDotted(t, "ambiguous.yaml")
	var list invariants.ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 1)
	assert.Equal(t, 7, list[0].Pos.Line)
	assert.Equal(t, 15, list[0].Pos.Col)
	assert.Equal(t, `invariant ambiguous: target: name "example.com/dotted/a/b.c.X" is ambiguous: packages example.com/dotted/a/b and example.com/dotted/a/b.c both exist; write ("example.com/dotted/a/b".c).X or "example.com/dotted/a/b.c".X`, list[0].Msg)
}
