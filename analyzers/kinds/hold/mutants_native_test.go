//go:build cgo

package hold_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativeLockCallMutantsKilled builds the reverts of the explicit lock
// calls of correct C and C++ code and checks each that is not void: the
// invariant fires in the mutated function. The unmutated code passes,
// and the reverts of the release (unlock-deleted, unlock-deleted-one-path)
// are made in both languages.
func TestNativeLockCallMutantsKilled(t *testing.T) {
	set, err := registry.Load("testdata/native/proved.yaml")
	require.NoError(t, err)
	require.Empty(t, nativecheck.Check(set, nativecheck.Options{}), "the correct code passes")
	for _, inv := range set.Invariants {
		c, err := native.Load(inv, nil)
		require.NoError(t, err)
		ms := inv.Rule.(native.Rule).NativeMutants(c)
		made := map[string]bool{}
		for _, m := range ms {
			if m.Void != "" {
				continue
			}
			op, _, _ := strings.Cut(m.Op, "@")
			made[op] = true
			view := overlay.New()
			for p, data := range m.Files {
				view.Replace(p, data)
			}
			one := &invariants.Set{Files: set.Files, Invariants: []*invariants.Invariant{inv}}
			killed := false
			for _, f := range nativecheck.Check(one, nativecheck.Options{Files: view}) {
				if f.ID == inv.ID && m.Site.Contains(f.Pos) {
					killed = true
				}
			}
			assert.True(t, killed, "%s survives: %s", m.Name, m.Site)
		}
		var got []string
		for op := range made {
			got = append(got, op)
		}
		sort.Strings(got)
		for _, op := range []string{"lock-deleted", "unlocked-early", "locked-late", "unlock-deleted", "unlock-deleted-one-path"} {
			assert.Contains(t, got, op, "%s: reverts made: %v", inv.ID, got)
		}
	}
}
