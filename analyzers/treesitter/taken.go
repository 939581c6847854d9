package treesitter

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// TakenLocks are the locked expressions of a body's guards and lock
// calls, written back as source in backquotes, each once, in the order
// the body takes them: what a rule names beside a lock the body never
// takes ("the function takes `mutex_`"), so that a lock misspelt in the
// invariant, or the wrong one of two, shows at once. Guards that hold
// nothing for the body (a temporary, a dead one) still say which lock
// the code means. A guard bound to an acquire helper's result names no
// lock of its own and is left out.
func TakenLocks(h *model.Hold) []string {
	var out []string
	for _, g := range h.All {
		for _, l := range g.Lock {
			if len(l) == 0 {
				continue
			}
			s := "`" + joinTokens(l) + "`"
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// ClosestLock is the clause appended to "lock L is taken by no function
// of the files": the locks the functions do take that are closest to
// the one the invariant names, compared without the `&`, `this->` or
// `self.` that do not tell locks apart; "" when none is close.
func ClosestLock(fns []*Function, pattern []string) string {
	seen := map[string]bool{}
	var locks []string
	for _, fn := range fns {
		for _, g := range fn.Guards().All {
			for _, l := range g.Lock {
				s := joinTokens(model.BareLock(l))
				if len(l) > 0 && !seen[s] {
					seen[s] = true
					locks = append(locks, s)
				}
			}
		}
	}
	slices.Sort(locks)
	return invariants.Suggest(joinTokens(model.BareLock(pattern)), slices.Values(locks))
}
