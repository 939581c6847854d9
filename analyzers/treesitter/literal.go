package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// LiteralAcquisitions lists the explicit lock calls made inside a lambda
// or closure of the body that may run later (`[ep] { ep->mu.lock(); ...
// ep->mu.unlock(); }` stored as a callback), each holding its lock from
// the call to the next unlock call of the same lock in the literal, or to
// the literal's end: what the literal's own code holds when it runs.
// Acquisitions leaves these out, since they do not run when the body
// does.
func (fn *Function) LiteralAcquisitions(lit *syntax.Node) []Acquisition {
	calls := fn.Calls()
	var out []Acquisition
	for _, c := range calls {
		if c.Live() || !c.MayRun() || !lit.Contains(c.Node) {
			continue
		}
		lock, mode, ok := fn.lockCall(&c, true)
		if !ok {
			continue
		}
		until := lit.End
		if fn.File.Lang == "rust" {
			until = c.Node.End // a temporary guard
		}
		for _, u := range calls {
			if l, _, ok := fn.lockCall(&u, false); ok && lit.Contains(u.Node) && u.Node.Start > c.Node.Start && u.Node.Start < until && model.MatchLock(l, lock) {
				until = u.Node.Start
			}
		}
		out = append(out, Acquisition{Node: c.Node, Lock: lock, Mode: mode, Takes: true, Until: until})
	}
	return out
}
