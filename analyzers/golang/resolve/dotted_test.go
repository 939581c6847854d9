package resolve_test

import (
	"errors"
	"go/types"
	"path/filepath"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/kinds/hold"
	"github.com/guardlint/guardlint/analyzers/kinds/requires"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// dottedDir is a module whose packages have dots in the last element of
// their import paths (nats.go, codec.v2, a/b.c) and that depends on
// gopkg.in/yaml.v3 from the module proxy; the engine, go vet,
// golangci-lint and prover tests use it too.
const dottedDir = "testdata/dotted"

// loadDotted type-checks the module's packages (its dependencies from
// export data) and returns them by import path, with the import paths of
// the whole graph.
func loadDotted(t *testing.T) (map[string]*packages.Package, []string) {
	t.Helper()
	d := dotted()
	require.NoError(t, d.err)
	return d.byPath, d.paths
}

// dotted loads the module once for all tests.
var dotted = sync.OnceValue(func() (d struct {
	byPath map[string]*packages.Package
	paths  []string
	err    error
}) {
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax,
		Dir:  dottedDir,
	}, "./...")
	if err != nil {
		d.err = err
		return d
	}
	d.byPath = map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			d.err = errors.Join(d.err, e)
		}
		d.byPath[p.PkgPath] = p
		d.paths = append(d.paths, p.PkgPath)
	})
	return d
})

func scopeOf(t *testing.T, pkgs map[string]*packages.Package, path string) *resolve.Scope {
	t.Helper()
	p := pkgs[path]
	require.NotNil(t, p, path)
	return resolve.NewScope(p.Types, p.TypesInfo)
}

func parse(t *testing.T, s string) invariants.Name {
	t.Helper()
	n, err := invariants.ParseName(s, "", "")
	require.NoError(t, err, s)
	return n
}

// TestFullNamesResolve checks that what types.Func.FullName prints for
// every function and method of the dotted module and of gopkg.in/yaml.v3
// (exported ones: the rest is not in export data) resolves to that
// function, through the package that imports it.
func TestFullNamesResolve(t *testing.T) {
	pkgs, _ := loadDotted(t)
	checked := map[string]int{}
	for from, path := range map[string]string{
		"example.com/dotted/codec.v2": "gopkg.in/yaml.v3",
		"example.com/dotted/nats.go":  "example.com/dotted/nats.go",
		"example.com/dotted/gen":      "example.com/dotted/gen",
		"example.com/dotted/a/b.c":    "example.com/dotted/a/b.c",
	} {
		s := scopeOf(t, pkgs, from)
		pkg := s.Package(path)
		require.NotNil(t, pkg, path)
		var fns []*types.Func
		for _, id := range pkg.Scope().Names() {
			switch obj := pkg.Scope().Lookup(id).(type) {
			case *types.Func:
				fns = append(fns, obj)
			case *types.TypeName:
				if named, ok := obj.Type().(*types.Named); ok && !obj.IsAlias() {
					for m := range named.Methods() {
						fns = append(fns, m)
					}
				}
			}
		}
		for _, fn := range fns {
			if path != from && !fn.Exported() {
				continue
			}
			got, err := s.Func(parse(t, fn.FullName()))
			if assert.NoError(t, err, fn.FullName()) {
				assert.Same(t, fn, got, fn.FullName())
				checked[path]++
			}
		}
	}
	assert.Greater(t, checked["gopkg.in/yaml.v3"], 15, "Marshal, Unmarshal, the methods of Node, Encoder, Decoder ...")
	assert.Equal(t, 6, checked["example.com/dotted/gen"], "Get, Put, Reset, Len, Remember, Last")
}

func TestDottedNames(t *testing.T) {
	pkgs, _ := loadDotted(t)
	codec := scopeOf(t, pkgs, "example.com/dotted/codec.v2")
	for _, s := range []string{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.v3.Unmarshal", "(*gopkg.in/yaml.v3.Node).Decode", `"gopkg.in/yaml.v3".Marshal`} {
		fn, err := codec.Func(parse(t, s))
		require.NoError(t, err, s)
		assert.Equal(t, "gopkg.in/yaml.v3", fn.Pkg().Path(), s)
	}
	// A field through a dotted path, in both spellings.
	kind, err := codec.Var(parse(t, "gopkg.in/yaml.v3.Node.Kind"))
	require.NoError(t, err)
	assert.True(t, kind.IsField())
	same, err := codec.Var(parse(t, "(gopkg.in/yaml.v3.Node).Kind"))
	require.NoError(t, err)
	assert.Same(t, kind, same)

	nats := scopeOf(t, pkgs, "example.com/dotted/nats.go")
	mu, err := nats.Var(parse(t, "(example.com/dotted/nats.go.Conn).mu"))
	require.NoError(t, err)
	assert.True(t, mu.IsField())
	owner, err := nats.Owner(parse(t, "(example.com/dotted/nats.go.Conn).mu"))
	require.NoError(t, err)
	assert.Equal(t, "Conn", owner.Name())
}

// TestGenericNames checks that type parameters in the go/types spelling
// name the generic type, and that a wrong count is an error.
func TestGenericNames(t *testing.T) {
	pkgs, _ := loadDotted(t)
	gen := scopeOf(t, pkgs, "example.com/dotted/gen")
	load, err := gen.Func(parse(t, "(*sync/atomic.Pointer[T]).Load"))
	require.NoError(t, err)
	bare, err := gen.Func(parse(t, "(*sync/atomic.Pointer).Load"))
	require.NoError(t, err)
	assert.Same(t, bare, load)
	assert.Equal(t, "(*sync/atomic.Pointer[T]).Load", load.FullName())

	get, err := gen.Func(parse(t, "(*example.com/dotted/gen.Map[K, V]).Get"))
	require.NoError(t, err)
	assert.Equal(t, "(*example.com/dotted/gen.Map[K, V]).Get", get.FullName())
	mu, err := gen.Var(parse(t, "example.com/dotted/gen.Map[K, V].mu"))
	require.NoError(t, err)
	assert.True(t, mu.IsField())

	for in, want := range map[string]string{
		"(*example.com/dotted/gen.Map[K]).Get":       "Map has 2 type parameters [K, V], the name gives 1",
		"(*example.com/dotted/gen.Map[K, V, W]).Get": "Map has 2 type parameters [K, V], the name gives 3",
		"(*example.com/dotted/gen.Cache[T]).Last":    "Cache is not generic, but the name gives it type parameters [T]",
	} {
		_, err := gen.Func(parse(t, in))
		assert.EqualError(t, err, want, in)
	}
}

// TestNotFoundSuggests checks that a name that does not resolve says how
// far it resolved and offers the closest names there.
func TestNotFoundSuggests(t *testing.T) {
	pkgs, _ := loadDotted(t)
	codec := scopeOf(t, pkgs, "example.com/dotted/codec.v2")
	nats := scopeOf(t, pkgs, "example.com/dotted/nats.go")
	for _, tc := range []struct {
		s        *resolve.Scope
		in, want string
	}{
		{nats, "(*example.com/dotted/nats.go.Conn).AuthRequird", "Conn has no method or field AuthRequird; closest: AuthRequired"},
		{nats, "(example.com/dotted/nats.go.Conn).mx", "Conn has no method or field mx; closest: mu"},
		{codec, "gopkg.in/yaml.v3.Marshall", "Marshall is not declared in package gopkg.in/yaml.v3; closest: Marshal, Marshaler, Unmarshal"},
		{codec, "gopkg.in/yaml.v2.Marshal", "none of the packages gopkg.in/yaml, gopkg.in/yaml.v2 is imported by example.com/dotted/codec.v2; closest: gopkg.in/yaml.v3"},
		{codec, `"gopkg.in/yaml.v2".Marshal`, "package gopkg.in/yaml.v2 is not imported by example.com/dotted/codec.v2; closest: gopkg.in/yaml.v3"},
	} {
		_, err := tc.s.Lookup(parse(t, tc.in))
		assert.EqualError(t, err, tc.want, tc.in)
	}
}

// TestAmbiguousInScope checks that a name whose readings both resolve to
// a visible package fails, listing them, where the driver left it
// unresolved; and that the quoted spellings it offers resolve.
func TestAmbiguousInScope(t *testing.T) {
	pkgs, _ := loadDotted(t)
	both := scopeOf(t, pkgs, "example.com/dotted/a/both")
	_, err := both.Func(parse(t, "example.com/dotted/a/b.c.X"))
	assert.EqualError(t, err, `name "example.com/dotted/a/b.c.X" is ambiguous: packages example.com/dotted/a/b and example.com/dotted/a/b.c both exist; write ("example.com/dotted/a/b".c).X or "example.com/dotted/a/b.c".X`)
	method, err := both.Func(parse(t, `("example.com/dotted/a/b".c).X`))
	require.NoError(t, err)
	assert.Equal(t, "(example.com/dotted/a/b.c).X", method.FullName())
	fn, err := both.Func(parse(t, `"example.com/dotted/a/b.c".X`))
	require.NoError(t, err)
	assert.Equal(t, "example.com/dotted/a/b.c.X", fn.FullName())
}

// TestLoadDotted loads the module's invariants files and resolves them
// against the module's packages, as the drivers do.
func TestLoadDotted(t *testing.T) {
	_, paths := loadDotted(t)
	set, err := registry.Load(filepath.Join(dottedDir, "guardlint.yaml"))
	require.NoError(t, err)
	require.NoError(t, set.Resolve(paths))
	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	assert.Equal(t, []string{"example.com/dotted/codec.v2"}, byID["encode-marshals"].Packages())
	assert.Equal(t, "gopkg.in/yaml.v3.Marshal", byID["encode-marshals"].Rule.(*call.Rule).To.String())
	assert.Equal(t, "example.com/dotted/codec.v2.mu", byID["encode-under-mu"].Rule.(*requires.Rule).Lock.String())
	assert.Equal(t, "(example.com/dotted/gen.Map[K, V]).mu", byID["map-locked"].Rule.(*hold.Rule).Lock.String())
	assert.Equal(t, []string{"example.com/dotted/nats.go"}, byID["auth-under-mu"].Packages())
	assert.Empty(t, set.Candidates(), "every name resolved")

	amb, err := registry.Load(filepath.Join(dottedDir, "ambiguous.yaml"))
	require.NoError(t, err)
	err = amb.Resolve(paths)
	var list invariants.ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 1)
	assert.Equal(t, 7, list[0].Pos.Line)
	assert.Contains(t, list[0].Msg, `invariant ambiguous: target: name "example.com/dotted/a/b.c.X" is ambiguous: packages example.com/dotted/a/b and example.com/dotted/a/b.c both exist`)
}
