package kernels

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbeddedPTXIsFresh fails when a kernel source changed and its PTX was
// not regenerated with scripts/gen-ptx.
func TestEmbeddedPTXIsFresh(t *testing.T) {
	mods, err := Modules()
	require.NoError(t, err)
	require.NotEmpty(t, mods)
	for _, m := range mods {
		stamp, ok := Stamp(m.PTX)
		require.Truef(t, ok, "%s.ptx has no %q line; run scripts/gen-ptx", m.Name, StampPrefix)
		require.Equalf(t, SourceHash(m.Source), stamp, "%s.ptx was generated from another %s.cu; run scripts/gen-ptx", m.Name, m.Name)
	}
}

// TestStaleDetectsEdit shows the check reacts to a one-byte source change.
func TestStaleDetectsEdit(t *testing.T) {
	m := Module{Name: "x", Source: "a", PTX: StampPrefix + SourceHash("a") + "\n.version 8.0\n"}
	require.False(t, m.Stale())
	m.Source = "b"
	require.True(t, m.Stale())
	m.PTX = ".version 8.0\n"
	require.True(t, m.Stale())
}
