package core

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/guardlint/guardlint/invariants"
)

// Finding is one result of a run: an invariant that does not hold at a
// place in the source, an invariant that cannot be verified (at its line
// in the invariants file), a wrong suppression, or an error of the run as
// a whole.
type Finding struct {
	Pos, End token.Position
	// ID is the invariant id, SuppressionID for a wrong or unused
	// suppression, or "" for an error of the run as a whole.
	ID string
	// Invariant is the invariant the finding is about, when there is one.
	Invariant *invariants.Invariant
	Message   string
	// Related are other places the finding concerns, each with what it
	// is there: the line of a patch that added the reported line of a
	// patched file. -json and SARIF carry them; the one-line format names
	// them in Message.
	Related []Related
}

// Related is another place a finding concerns.
type Related struct {
	Pos     token.Position
	Message string
}

// SuppressionID is the id of findings about suppression comments.
const SuppressionID = "suppression"

// Format returns the finding as one line, file:line:col: message, with
// the file relative to dir when it lies inside it.
func (f Finding) Format(dir string) string {
	if f.Pos.Filename == "" {
		return "guardlint: " + f.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", RelPath(dir, f.Pos.Filename), f.Pos.Line, f.Pos.Column, f.Message)
}

// RelPath shortens a path to be relative to dir when it lies inside it.
func RelPath(dir, p string) string {
	if dir == "" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// Sort orders findings by file, line and column, keeping the order of
// findings at one position.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
		)
	})
}

// PosOf converts a position in an invariants file to a token.Position.
func PosOf(p invariants.Pos) token.Position {
	return token.Position{Filename: p.File, Line: p.Line, Column: p.Col}
}
