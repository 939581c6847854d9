package treesitter

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryLockCallHasItsUnlock checks that UnlockOf names, for every
// explicit lock call the front end knows, an unlock call it knows too:
// the prover's reverts give a lock up with it.
func TestEveryLockCallHasItsUnlock(t *testing.T) {
	for name := range lockMethods {
		assert.True(t, unlockMethods[UnlockOf(name)], "method %s", name)
	}
	for name := range lockFuncs {
		assert.True(t, unlockFuncs[UnlockOf(name)], "function %s", name)
	}
	assert.Empty(t, UnlockOf("unlock"))
}
