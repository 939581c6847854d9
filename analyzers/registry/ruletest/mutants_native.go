package ruletest

import (
	"slices"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NativeMutantsKilled loads the invariants of path, whose code must
// pass, builds the reverts of each (native.Rule) and checks every one
// that is not void: the invariant fires inside the mutated site, or at a
// caller naming the mutated function (mutant.Site.NamedBy), as prove
// counts a kill. It returns, by invariant, the reverts made (their
// operators, sorted), for the kind's test to say which it expects.
func NativeMutantsKilled(t *testing.T, path string) map[string][]string {
	t.Helper()
	set, err := registry.Load(path)
	require.NoError(t, err)
	require.Empty(t, nativecheck.Check(set, nativecheck.Options{}), "the correct code passes")
	made := map[string][]string{}
	for _, inv := range set.Invariants {
		c, err := native.Load(inv, nil)
		require.NoError(t, err)
		ms := inv.Rule.(native.Rule).NativeMutants(c)
		require.NotEmpty(t, ms, inv.ID)
		ops := []string{}
		for _, m := range ms {
			if m.Void != "" {
				continue
			}
			op, _, _ := strings.Cut(m.Op, "@")
			ops = append(ops, op)
			view := overlay.New()
			for p, data := range m.Files {
				view.Replace(p, data)
			}
			one := &invariants.Set{Files: set.Files, Invariants: []*invariants.Invariant{inv}}
			killed := slices.ContainsFunc(nativecheck.Check(one, nativecheck.Options{Files: view}), func(f core.Finding) bool {
				return f.ID == inv.ID && (m.Site.Contains(f.Pos) || m.Site.NamedBy(f.Message))
			})
			assert.True(t, killed, "%s survives: %s", m.Name, m.Site)
		}
		slices.Sort(ops)
		made[inv.ID] = slices.Compact(ops)
	}
	return made
}

// RevertsMade asserts that every invariant of want had each of its
// reverts made, in what NativeMutantsKilled returned.
func RevertsMade(t *testing.T, made, want map[string][]string) {
	t.Helper()
	for id, ops := range want {
		for _, op := range ops {
			assert.Contains(t, made[id], op, "%s: reverts made: %v", id, made[id])
		}
	}
}
