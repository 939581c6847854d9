package hold

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// Patterns implements treesitter.FunctionRule.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Lock} }

// Check implements treesitter.FunctionRule. In C, C++, CUDA and Rust a
// lock is held for the body by a guard object or guard binding declared in
// the body's outermost block, before the first statement that does work,
// and not released while work remains.
func (r *Rule) Check(fn *treesitter.Function) {
	verdict(fn, r.nativeFacts(fn))
}

func (r *Rule) nativeFacts(fn *treesitter.Function) facts {
	f := facts{fn: fn.Name(), at: fn.At(), lock: r.Lock.Raw, mode: r.Mode}
	h := fn.Hold()
	pattern := fn.Patterns[0]
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
		f.released, f.workAfter = released(h, s, i)
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
// top-level statement doing work still follows, and that statement.
func released(h *model.Hold, g model.Stmt, at int) (release, work any) {
	for _, r := range h.Releases {
		if r.Guard != g.Guard.Name || r.Node.Start < g.Node.End {
			continue
		}
		for _, s := range h.Top[at+1:] {
			if s.Kind == model.Work && s.Node.End > r.Node.End && !s.Node.Contains(r.Node) {
				return r.Node, s.Node
			}
		}
	}
	return nil, nil
}
