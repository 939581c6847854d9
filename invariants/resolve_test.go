package invariants_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/guardlint/guardlint/analyzers/kinds/order"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNameReadings checks how names split when the last element of their
// package path holds dots, and the type parameters go/types prints.
func TestNameReadings(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     invariants.Name // Raw and Pos are not compared
		readings []invariants.Reading
	}{
		// One reading: the keyword "go" cannot be an identifier, and a
		// receiver holds one type name.
		{in: "(*github.com/nats-io/nats.go.Conn).AuthRequired", want: invariants.Name{Pkg: "github.com/nats-io/nats.go", Ident: "Conn", Member: "AuthRequired", Ptr: true}},
		{in: "(github.com/nats-io/nats.go.Conn).mu", want: invariants.Name{Pkg: "github.com/nats-io/nats.go", Ident: "Conn", Member: "mu"}},
		{in: "(*gopkg.in/yaml.v3.Node).Decode", want: invariants.Name{Pkg: "gopkg.in/yaml.v3", Ident: "Node", Member: "Decode", Ptr: true}},
		{in: `"gopkg.in/yaml.v3".Marshal`, want: invariants.Name{Pkg: "gopkg.in/yaml.v3", Ident: "Marshal"}},
		{in: `("a/b".c).X`, want: invariants.Name{Pkg: "a/b", Ident: "c", Member: "X"}},
		// No dot in the last element of the path: as before.
		{in: "example.com/m/runtime.Eval", want: invariants.Name{Pkg: "example.com/m/runtime", Ident: "Eval"}},
		{in: "(*example.com/m/runtime.Encoder).retain", want: invariants.Name{Pkg: "example.com/m/runtime", Ident: "Encoder", Member: "retain", Ptr: true}},
		// Several readings, the first as names were read before.
		{
			in:       "gopkg.in/yaml.v3.Unmarshal",
			want:     invariants.Name{Pkg: "gopkg.in/yaml", Ident: "v3", Member: "Unmarshal"},
			readings: []invariants.Reading{{"gopkg.in/yaml", "v3", "Unmarshal"}, {"gopkg.in/yaml.v3", "Unmarshal", ""}},
		},
		{
			in:       "gopkg.in/yaml.v3.Node.Decode",
			want:     invariants.Name{Pkg: "gopkg.in/yaml.v3", Ident: "Node", Member: "Decode"},
			readings: []invariants.Reading{{"gopkg.in/yaml.v3", "Node", "Decode"}, {"gopkg.in/yaml.v3.Node", "Decode", ""}},
		},
		{
			in:       "example.com/m/runtime.CommandBuffer.active",
			want:     invariants.Name{Pkg: "example.com/m/runtime", Ident: "CommandBuffer", Member: "active"},
			readings: []invariants.Reading{{"example.com/m/runtime", "CommandBuffer", "active"}, {"example.com/m/runtime.CommandBuffer", "active", ""}},
		},
		// Type parameters, as go/types prints them.
		{in: "(*sync/atomic.Pointer[T]).Load", want: invariants.Name{Pkg: "sync/atomic", Ident: "Pointer", Member: "Load", Ptr: true, TypeParams: []string{"T"}}},
		{in: "(*./gen.Map[K, V]).Get", want: invariants.Name{Pkg: "example.com/m/gen", Ident: "Map", Member: "Get", Ptr: true, TypeParams: []string{"K", "V"}}},
		{in: "example.com/m/gen.Map[K,V].mu", want: invariants.Name{Pkg: "example.com/m/gen", Ident: "Map", Member: "mu", TypeParams: []string{"K", "V"}}},
		{in: "Map[K, V].mu", want: invariants.Name{Pkg: "example.com/m/def", Ident: "Map", Member: "mu", TypeParams: []string{"K", "V"}}},
		{in: "(*gopkg.in/yaml.v3.Box[T]).Get", want: invariants.Name{Pkg: "gopkg.in/yaml.v3", Ident: "Box", Member: "Get", Ptr: true, TypeParams: []string{"T"}}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			n, err := invariants.ParseName(tc.in, "example.com/m", "example.com/m/def")
			require.NoError(t, err)
			assert.Equal(t, tc.in, n.Raw)
			n.Raw = ""
			tc.want.Readings = tc.readings
			assert.Equal(t, tc.want, n)
		})
	}
}

func TestNameSpelling(t *testing.T) {
	for in, want := range map[string]string{
		"(*sync/atomic.Pointer[T]).Load":       "(*sync/atomic.Pointer[T]).Load",
		"example.com/m/gen.Map[K,V].mu":        "(example.com/m/gen.Map[K, V]).mu",
		"(github.com/nats-io/nats.go.Conn).mu": "(github.com/nats-io/nats.go.Conn).mu",
	} {
		n, err := invariants.ParseName(in, "", "")
		require.NoError(t, err)
		assert.Equal(t, want, n.String(), in)
	}
	n, err := invariants.ParseName("(*sync/atomic.Pointer[T]).Load", "", "")
	require.NoError(t, err)
	assert.Equal(t, "(*atomic.Pointer[T]).Load", n.Short())
	assert.Equal(t, `(*"sync/atomic".Pointer[T]).Load`, n.Quoted())
	n, err = invariants.ParseName("gopkg.in/yaml.v3.Node.Kind", "", "")
	require.NoError(t, err)
	assert.Equal(t, "yaml.v3.Node.Kind", n.Short(), "unresolved: as written")
	n, err = invariants.ParseName("(*example.com/dotted/a/b.c.T).m", "", "")
	require.NoError(t, err)
	assert.Equal(t, "(*b.c.T).m", n.Short(), "one reading: from its package")
}

func TestNameErrors(t *testing.T) {
	for in, want := range map[string]string{
		"(*p.Map[K, 1]).Get": `type parameter "1" is not an identifier`,
		"(*p.Map[]).Get":     `type parameter "" is not an identifier`,
		"p.Map[K]":           "type parameters belong to a type: want T[P].field or (T[P]).method",
		"(*p.Map[K].x).Get":  "want the type parameters at the end of the type name",
		"(*p.Map]).Get":      "unbalanced ']'",
		"(*p.Map[K).Get":     `"Map[K" is not an identifier`,
		"p.F-1":              `"F-1" is not an identifier`,
		"a/b.c-d.e.F-1":      `"c-d" is not an identifier`,
		`"p".T.U.V`:          "too many selectors",
	} {
		_, err := invariants.ParseName(in, "", "")
		if assert.Error(t, err, in) {
			assert.Contains(t, err.Error(), want, in)
		}
	}
}

func parseSet(t *testing.T, src string) *invariants.Set {
	t.Helper()
	f, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
	require.NoError(t, err)
	return &invariants.Set{Files: []*invariants.File{f}, Invariants: f.Invariants}
}

const dottedSrc = `version: 1
invariants:
  - id: decode
    why: w
    function: example.com/m/codec.v2.Decode
    order:
      first: gopkg.in/yaml.v3.Unmarshal
      then: (*gopkg.in/yaml.v3.Node).Decode
  - id: plain
    why: w
    field: example.com/m/runtime.CommandBuffer.active
    owns: {writers: [example.com/m/runtime.reset]}
`

func TestResolve(t *testing.T) {
	set := parseSet(t, dottedSrc)
	assert.Equal(t, []string{
		"example.com/m/codec", "example.com/m/codec.v2",
		"example.com/m/runtime", "example.com/m/runtime.CommandBuffer",
		"gopkg.in/yaml", "gopkg.in/yaml.v3",
	}, set.Candidates())
	require.NoError(t, set.Resolve([]string{"example.com/m/codec.v2", "gopkg.in/yaml.v3", "example.com/m/runtime", "fmt"}))
	dec, plain := set.Invariants[0], set.Invariants[1]
	assert.Equal(t, "example.com/m/codec.v2.Decode", dec.Functions[0].String())
	assert.Equal(t, "gopkg.in/yaml.v3.Unmarshal", dec.Rule.(*order.Rule).First.String())
	assert.Equal(t, "(*gopkg.in/yaml.v3.Node).Decode", dec.Rule.(*order.Rule).Then.String())
	assert.Equal(t, "(example.com/m/runtime.CommandBuffer).active", plain.Field.String())
	for _, n := range []invariants.Name{dec.Functions[0], dec.Rule.(*order.Rule).First, *plain.Field} {
		assert.Nil(t, n.Readings, n.Raw)
	}
	assert.Equal(t, []string{"example.com/m/codec.v2"}, dec.Packages())
	assert.Empty(t, set.Candidates())

	// The first call decides: a later one with other packages changes
	// nothing, so drivers that share a set may each call it.
	require.NoError(t, set.Resolve([]string{"example.com/m/codec"}))
	assert.Equal(t, "example.com/m/codec.v2", dec.Functions[0].Pkg)
}

// TestResolveUnknown checks that a name none of whose readings is known
// keeps the reading names had before dotted paths, and its readings.
func TestResolveUnknown(t *testing.T) {
	set := parseSet(t, dottedSrc)
	require.NoError(t, set.Resolve([]string{"fmt"}))
	plain := set.Invariants[1]
	assert.Equal(t, "example.com/m/runtime", plain.Field.Pkg)
	assert.Equal(t, "CommandBuffer", plain.Field.Ident)
	assert.Len(t, plain.Field.Readings, 2)
	assert.Equal(t, []string{"example.com/m/codec"}, set.Invariants[0].Packages())
}

func TestResolveAmbiguous(t *testing.T) {
	set := parseSet(t, `version: 1
invariants:
  - id: amb
    why: w
    function: a/b.c.X
    call: {to: a/b.c.Y}
`)
	err := set.Resolve([]string{"a/b", "a/b.c"})
	var list invariants.ErrorList
	require.True(t, errors.As(err, &list), "%v", err)
	require.Len(t, list, 2)
	assert.Equal(t, invariants.Pos{File: "inv.yaml", Line: 5, Col: 15}, list[0].Pos)
	assert.Equal(t, `invariant amb: target: name "a/b.c.X" is ambiguous: packages a/b and a/b.c both exist; write ("a/b".c).X or "a/b.c".X`, list[0].Msg)
	assert.Equal(t, invariants.Pos{File: "inv.yaml", Line: 6, Col: 16}, list[1].Pos)
	assert.Contains(t, list[1].Msg, "invariant amb: call: ")
	assert.Equal(t, err, set.Resolve(nil), "later calls return the first call's result")

	// Each spelling the error offers has the one reading it stands for.
	for spelled, want := range map[string]invariants.Reading{
		`("a/b".c).X`: {"a/b", "c", "X"},
		`"a/b.c".X`:   {"a/b.c", "X", ""},
	} {
		n, err := invariants.ParseName(spelled, "", "")
		require.NoError(t, err)
		assert.Nil(t, n.Readings)
		assert.Equal(t, want, invariants.Reading{n.Pkg, n.Ident, n.Member})
	}

	// Only the known packages count: with a/b.c alone, the name is X there.
	set = parseSet(t, "version: 1\ninvariants: [{id: a, why: w, function: a/b.c.X, call: {to: a/b.c.Y}}]\n")
	require.NoError(t, set.Resolve([]string{"a/b.c"}))
	assert.Equal(t, "a/b.c.X", set.Invariants[0].Functions[0].String())
}

func TestClosest(t *testing.T) {
	words := []string{"AuthRequired", "Close", "Flush", "authRequired"}
	assert.Equal(t, []string{"AuthRequired", "authRequired"}, invariants.Closest("AuthRequird", slices.Values(words)))
	assert.Empty(t, invariants.Closest("Drain", slices.Values(words)), "nothing close is no suggestion")
	paths := []string{"example.com/dotted/codec.v2", "example.com/dotted/gen", "example.com/dotted/a/b.c"}
	assert.Equal(t, "; closest: example.com/dotted/codec.v2", invariants.Suggest("example.com/dotted/codec", slices.Values(paths)))
	assert.Equal(t, "", invariants.Suggest("example.com/dotted/zzz", slices.Values(paths)))
}
