//go:build cgo

package hold

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Balance in the C family: a mutex taken by an explicit lock call
// (`pthread_mutex_lock(&mu)`, `mu.lock()`, `mu_.Lock()`, a try-lock where
// it succeeded) is given up on every path from the call to every return
// after it (treesitter.Function.Unlocked), unless the target hands it to
// its caller (returns_held). A guard object needs no such check: its
// destructor unlocks on every path, and what gives it up without
// unlocking is a leak of its own (unique_lock::release).

// lockCallLeaks returns the exits that a lock call of the pattern's lock
// reaches with the mutex held on every path, and the text of the first
// such call, for the message.
func lockCallLeaks(fn *treesitter.Function, h *model.Hold, pattern []string) ([]treesitter.Exit, string) {
	var out []treesitter.Exit
	call := ""
	seen := map[*syntax.Node]bool{}
	exits := fn.Exits()
	for _, g := range h.All {
		if !g.LockCall || !g.Live() || g.Scope == nil || g.NotHeld != "" || !g.Locks(pattern) {
			continue
		}
		for _, e := range exits {
			if seen[e.At] || e.At.Start < g.Node.End || !g.Scope.Contains(e.At) || fn.Unlocked(g, e.At) {
				continue
			}
			seen[e.At] = true
			out = append(out, e)
			if call == "" && g.Node.Kind == "call_expression" {
				call = fn.File.Text(g.Node)
			}
		}
	}
	slices.SortFunc(out, func(a, b treesitter.Exit) int { return a.At.Start - b.At.Start })
	return out, call
}

// relockedBefore reports whether a lock call of the guard's mutex, a
// statement of the outermost block, takes it again between its release
// r and the statement s: the work at s is held again.
func relockedBefore(h *model.Hold, g *model.Guard, r, s *syntax.Node) bool {
	if !g.LockCall {
		return false
	}
	for _, t := range h.Top {
		if t.Kind == model.GuardStmt && t.Guard.Name == g.Name && t.Node.Start >= r.End && t.Node.End <= s.Start {
			return true
		}
	}
	return false
}
