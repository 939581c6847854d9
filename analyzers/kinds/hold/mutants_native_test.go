//go:build cgo

package hold_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
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
