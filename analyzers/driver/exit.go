package driver

// Exit codes of the standalone command and of guardlint prove.
const (
	// ExitClean: every invariant holds (prove: every invariant proved).
	ExitClean = 0
	// ExitFindings: findings, including invariants that cannot be
	// verified (prove: a mutant survived, or an invariant fails, is
	// vacuous or unproved).
	ExitFindings = 1
	// ExitConfig: unusable configuration or command line.
	ExitConfig = 2
	// ExitFailure: packages failed to load or type-check, or an analyzer
	// failed.
	ExitFailure = 3
)
