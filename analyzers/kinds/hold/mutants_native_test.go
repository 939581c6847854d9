//go:build cgo

package hold_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativeLockCallMutantsKilled builds the reverts of the explicit lock
// calls of correct C and C++ code and checks each that is not void: the
// invariant fires in the mutated function. The unmutated code passes,
// and the reverts of the release (unlock-deleted, unlock-deleted-one-path)
// are made in both languages.
func TestNativeLockCallMutantsKilled(t *testing.T) {
	made := ruletest.NativeMutantsKilled(t, "testdata/native/proved.yaml")
	for id, got := range made {
		for _, op := range []string{"lock-deleted", "unlocked-early", "locked-late", "unlock-deleted", "unlock-deleted-one-path"} {
			assert.Contains(t, got, op, "%s: reverts made: %v", id, got)
		}
	}
}

// TestNativeBoundGuardMutantsKilled builds the reverts of guards bound
// by their statement (Rust's if let, while let, match arms; C++'s
// if and switch init-statements), of a let-else and of deduced C++
// guards, and checks each that is not void: the invariant fires in the
// mutated function. Each form gets the reverts a real revert of it
// makes: the lock deleted with its region kept, made a temporary, given
// up first in its region (dropped or unlocked, forgotten or released),
// another mutex, the other mode; C++ also the guard declared after the
// region's first statement.
func TestNativeBoundGuardMutantsKilled(t *testing.T) {
	made := ruletest.NativeMutantsKilled(t, "testdata/native/bound.yaml")
	every := []string{"lock-deleted", "empty-critical-section", "unlocked-early", "guard-forgotten", "another-lock", "other-mode"}
	want := map[string][]string{
		"bound-if-let":              every,
		"bound-while-let":           every,
		"bound-match":               every,
		"bound-match-try":           every,
		"bound-let-else":            append([]string{"let-underscore", "nested-scope", "locked-late"}, every...),
		"bound-init-if":             append([]string{"locked-late"}, every...),
		"bound-init-switch":         append([]string{"locked-late"}, every...),
		"deduced-unique-lock":       append([]string{"nested-scope", "locked-late"}, every...),
		"deduced-lock-guard-value":  append([]string{"nested-scope", "locked-late"}, every...),
		"deduced-lock-guard-braces": append([]string{"nested-scope", "locked-late"}, every...),
	}
	require.Len(t, made, len(want))
	ruletest.RevertsMade(t, made, want)
}
