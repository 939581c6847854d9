//go:build cgo

package guardedby_test

import (
	"fmt"
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

// TestNativeMutantsKilled builds the reverts of every invariant of the
// correct testdata and checks each that is not void: the invariant fires
// in the mutated function. The unmutated code passes.
func TestNativeMutantsKilled(t *testing.T) {
	set, err := registry.Load("testdata/native/proved.yaml")
	require.NoError(t, err)
	assert.Empty(t, nativecheck.Check(set, nativecheck.Options{}), "the correct code passes")
	ops := map[string]map[string]int{}
	for _, inv := range set.Invariants {
		c, err := native.Load(inv, nil)
		require.NoError(t, err)
		ms := inv.Rule.(native.Rule).NativeMutants(c)
		require.NotEmpty(t, ms, inv.ID)
		ops[inv.ID] = map[string]int{}
		for _, m := range ms {
			if m.Void != "" {
				continue
			}
			op, _, _ := strings.Cut(m.Op, "@")
			ops[inv.ID][op]++
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
	}
	// Every revert the issue names is made in every language that has it.
	for id, want := range map[string][]string{
		"cache":   {"lock-deleted", "out-of-scope", "other-mode", "subscript-added"},
		"table":   {"lock-deleted", "out-of-scope"},
		"streams": {"lock-deleted", "out-of-scope", "other-mode"},
		"pool":    {"lock-deleted", "out-of-scope", "other-mode"},
	} {
		var got []string
		for op := range ops[id] {
			got = append(got, op)
		}
		sort.Strings(got)
		for _, op := range want {
			assert.Contains(t, got, op, fmt.Sprintf("%s: reverts made: %v", id, got))
		}
	}
}
