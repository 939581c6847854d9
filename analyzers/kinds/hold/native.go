//go:build cgo

package hold

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Patterns implements treesitter.FunctionRule: the lock, then its
// alternatives.
func (r *Rule) Patterns() []invariants.Name { return append([]invariants.Name{r.Lock}, r.Or...) }

// Check implements treesitter.FunctionRule. In C, C++, CUDA and Rust a
// lock is held for the body by a guard object or guard binding declared in
// the body's outermost block, before the first statement that does work,
// and not released while work remains. With alternatives, holding any one
// of the locks so satisfies the rule; otherwise the finding speaks of the
// alternative the body comes closest to holding (one it has a guard of).
func (r *Rule) Check(fn *treesitter.Function) {
	var best facts[treesitter.Site]
	found := false
	for i, lock := range r.Patterns() {
		f := r.nativeFacts(fn, i, lock.Raw)
		if f.acquired && f.unheld == nil && f.released == nil && f.forgotten == nil && len(f.leaks) == 0 {
			return
		}
		if has := f.acquired || f.wrongMode != nil || f.ignored != nil; i == 0 || (has && !found) {
			best, found = f, has
		}
	}
	if !found {
		best.lock = r.locks()
	}
	if !best.acquired {
		best.takes = treesitter.TakenLocks(fn.Guards())
	}
	verdict(fn, best)
}

func (r *Rule) nativeFacts(fn *treesitter.Function, i int, lock string) facts[treesitter.Site] {
	f := facts[treesitter.Site]{fn: fn.Name(), at: fn.At(), lock: lock, mode: r.Mode}
	h := fn.Guards()
	pattern := fn.Patterns[i]
	if !r.ReturnsHeld {
		f.leaks, f.acquisition = lockCallLeaks(fn, h, pattern)
		f.releaseHow = "an unlock before each return"
	}
	var firstWork *model.Stmt
	for i, s := range h.Top {
		switch {
		case s.Kind == model.Work:
			if firstWork == nil {
				firstWork = &h.Top[i]
			}
			continue
		case s.Kind != model.GuardStmt || !s.Guard.Locks(pattern):
			continue
		case s.Guard.Mode != r.Mode:
			f.wrongMode = s.Node
			return f
		}
		f.acquired = true
		if firstWork != nil {
			f.unheld, f.takenAt = firstWork.Node, s.Node
			return f
		}
		if s.Guard.Statement {
			// A guard bound by an `if let`, a `match` or a C++ if's
			// init-statement holds only within its statement.
			for _, t := range h.Top[i+1:] {
				if t.Kind == model.Work {
					f.unheld = t.Node
					return f
				}
			}
		}
		f.released, f.workAfter = released(fn, h, s, i)
		if !r.ReturnsHeld {
			f.forgotten = forgotten(h, s)
		}
		return f
	}
	for _, g := range h.Other {
		if g.Locks(pattern) {
			f.ignored, f.ignoredWhy = g.Node, g.NotHeld
			break
		}
	}
	return f
}

// released finds an explicit release of the guard (drop, unlock) that a
// top-level statement doing work still follows, and that statement. A
// release followed in its block by a statement that leaves the function
// (`lk.unlock(); return;`) is followed by nothing.
func released(fn *treesitter.Function, h *model.Hold, g model.Stmt, at int) (release, work treesitter.Site) {
	var later []*syntax.Node
	for _, s := range h.Top[at+1:] {
		if s.Kind == model.Work {
			later = append(later, s.Node)
		}
	}
	if g.Guard.Statement {
		// Past its statement the guard holds nothing: the work that
		// matters is its region's.
		later = g.Guard.RegionWork
	}
	for _, r := range h.Releases {
		if r.Guard != g.Guard.Name || !holdsAt(g, r.Node) {
			continue
		}
		for _, s := range later {
			if s.End > r.Node.End && !s.Contains(r.Node) && fn.Reaches(r.Node, s) && !relockedBefore(h, g.Guard, r.Node, s) {
				return r.Node, s
			}
		}
	}
	return nil, nil
}

// holdsAt reports whether n comes after the guard of statement g is
// taken and, for a guard bound by its statement, inside what it holds:
// a release or a leak there gives up this guard, not another of its
// name.
func holdsAt(g model.Stmt, n *syntax.Node) bool {
	if g.Guard.Statement {
		return n.Start >= g.Guard.Node.End && g.Guard.Scope.Contains(n)
	}
	return n.Start >= g.Node.End
}

// forgotten finds a call that gives up the guard without unlocking
// (model.Hold.Leaks) after its declaration: the lock stays held when the
// function returns, whatever path it takes.
func forgotten(h *model.Hold, g model.Stmt) treesitter.Site {
	for _, l := range h.Leaks {
		if l.Guard == g.Guard.Name && g.Guard.Name != "" && holdsAt(g, l.Node) {
			return l.Node
		}
	}
	return nil
}

// PatternUses implements treesitter.PatternUser: every pattern is a lock.
func (r *Rule) PatternUses() []model.Use {
	uses := make([]model.Use, 1+len(r.Or))
	for i := range uses {
		uses[i] = model.UseLock
	}
	return uses
}
