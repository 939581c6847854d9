package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryLockCallHasItsUnlock checks that UnlockOf names, for every
// explicit lock call the front ends know, an unlock call it knows too:
// the prover's reverts give a lock up with it.
func TestEveryLockCallHasItsUnlock(t *testing.T) {
	for name := range LockMethods {
		assert.True(t, UnlockMethods[UnlockOf(name)], "method %s", name)
	}
	for name := range LockFuncs {
		assert.True(t, UnlockFuncs[UnlockOf(name)], "function %s", name)
	}
	assert.Empty(t, UnlockOf("unlock"))
}
