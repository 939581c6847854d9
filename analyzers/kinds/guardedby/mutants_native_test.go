//go:build cgo

package guardedby_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
)

// TestNativeMutantsKilled builds the reverts of every invariant of the
// correct testdata and checks each that is not void: the invariant fires
// in the mutated function. The unmutated code passes.
func TestNativeMutantsKilled(t *testing.T) {
	made := ruletest.NativeMutantsKilled(t, "testdata/native/proved.yaml")
	// Every revert the issue names is made in every language that has it.
	for id, want := range map[string][]string{
		"cache":   {"lock-deleted", "out-of-scope", "other-mode", "subscript-added"},
		"table":   {"lock-deleted", "out-of-scope"},
		"streams": {"lock-deleted", "out-of-scope", "other-mode"},
		"pool":    {"lock-deleted", "out-of-scope", "other-mode"},
		// Made at the callers of the helpers, Add and Total.
		"ledger": {"lock-deleted", "out-of-scope", "unlocked-early"},
		// At Shutdown (an override no code here calls), OnWritten (its
		// receiver cast from a void*), OnReadLater (a RefCountedPtr);
		// the contracts of MakeWaker and Poll deleted.
		"handshake": {"lock-deleted", "out-of-scope", "contract-deleted"},
	} {
		for _, op := range want {
			assert.Contains(t, made[id], op, "%s: reverts made: %v", id, made[id])
		}
	}
}
