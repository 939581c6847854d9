package core

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/guardlint/guardlint/invariants"
)

// TestSummaryWithoutRule checks that an invariant missing its rule is
// summarised by its id instead of crashing the report.
func TestSummaryWithoutRule(t *testing.T) {
	assert.Equal(t, "invariant x", Summary(&invariants.Invariant{ID: "x"}))
}
