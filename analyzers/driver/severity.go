package driver

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
)

// SeverityOf is the severity of a finding: its invariant's, or error for
// a finding about no invariant (a wrong suppression, a patch that does
// not apply, a run that checked nothing), which always fails.
func SeverityOf(f core.Finding) invariants.Severity {
	if f.Invariant != nil && f.Invariant.Severity != "" {
		return f.Invariant.Severity
	}
	return invariants.SeverityError
}

// Fails reports whether a finding fails a run whose threshold is failOn
// (-fail-on): a finding at failOn or heavier does. A note fails only a
// run that asks for it.
func Fails(f core.Finding, failOn invariants.Severity) bool {
	return SeverityOf(f).Rank() <= failOn.Rank()
}

// SeverityPrefix is how a text line marks a finding's severity before its
// message: "warning: " or "note: ", as compilers write them, and nothing
// for an error, so that the line every tool already parses is unchanged.
// The standalone command's text output and the analysis surfaces (go vet,
// golangci-lint) write it alike.
func SeverityPrefix(sev invariants.Severity) string {
	if sev == "" || sev == invariants.SeverityError {
		return ""
	}
	return string(sev) + ": "
}
