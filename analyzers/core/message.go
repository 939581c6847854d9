package core

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Message words a finding about an invariant: the invariant id first, so
// that a line printed without the analyzer's name (as go vet prints it)
// still says which invariant, and the why last.
func Message(inv *invariants.Invariant, msg string) string {
	why := "why: " + inv.Why
	if inv.Ref != "" {
		why += "; see " + inv.Ref
	}
	return fmt.Sprintf("invariant %s: %s (%s)", inv.ID, msg, why)
}

// CannotVerify words the message of an invariant that cannot be checked:
// its target, callee or lock does not resolve, or its code does not parse.
// Such an invariant fails closed: it is a finding, never a pass.
func CannotVerify(format string, args ...any) string {
	return "cannot verify: " + fmt.Sprintf(format, args...)
}

// Unverifiable is the finding of an invariant that cannot be checked, at
// a position in the invariants file.
func Unverifiable(inv *invariants.Invariant, at invariants.Pos, format string, args ...any) Finding {
	pos := PosOf(at)
	return Finding{Pos: pos, End: pos, ID: inv.ID, Invariant: inv, Message: Message(inv, CannotVerify(format, args...))}
}

// CallPath words a call path, caller first: "app.Serve → gpu.encodeLocked".
func CallPath(p []string) string { return strings.Join(p, " → ") }
