package driver

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// Summary states in one line what an invariant requires (its kind's
// description; see core.Summary).
func Summary(inv *invariants.Invariant) string { return core.Summary(inv) }
