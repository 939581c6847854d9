//go:build cgo

package requires_test

import (
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativeBoundGuardMutantsKilled builds the reverts of guards bound
// by their statement (Rust's if let, while let, match arms; C++'s if and
// switch init-statements) around a call of an operation, and checks each
// that is not void: the invariant fires in the mutated function. Each
// form gets the lock deleted with its region kept, made a temporary,
// given up right before the call, another mutex, the other mode and the
// call moved out of the region; C++ also the guard declared after the
// call.
func TestNativeBoundGuardMutantsKilled(t *testing.T) {
	made := ruletest.NativeMutantsKilled(t, "testdata/native/bound.yaml")
	every := []string{"lock-deleted", "empty-critical-section", "unlocked-early", "another-lock", "other-mode", "out-of-scope"}
	want := map[string][]string{
		"bound-if-let":      every,
		"bound-while-let":   every,
		"bound-match":       every,
		"bound-init-if":     append([]string{"locked-late"}, every...),
		"bound-init-switch": append([]string{"locked-late"}, every...),
	}
	require.Len(t, made, len(want))
	ruletest.RevertsMade(t, made, want)
}

// TestNativeBoundGuardElse checks that the reverts of a C++
// init-statement's guard relative to an access in the else are made
// there: the guard holds the else too.
func TestNativeBoundGuardElse(t *testing.T) {
	set, err := registry.Load("testdata/native/bound.yaml")
	require.NoError(t, err)
	for _, inv := range set.Invariants {
		if inv.ID != "bound-init-if" {
			continue
		}
		c, err := native.Load(inv, nil)
		require.NoError(t, err)
		made := 0
		for _, m := range inv.Rule.(native.Rule).NativeMutants(c) {
			if strings.HasSuffix(m.Op, "@15") && m.Void == "" {
				made++
			}
		}
		assert.Equal(t, 7, made, "reverts made for the access in the else")
	}
}
