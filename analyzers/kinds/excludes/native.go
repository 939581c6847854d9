//go:build cgo

package excludes

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet: the rule over the functions of the invariant's
// files. A call of a target, or of a function of the files that passes
// the exclusion on, is made with the lock held where a guard of it is in
// scope or an explicit lock call has not been undone; a function that
// calls one where neither it nor an earlier unlock decides the lock
// passes the exclusion to its own callers in the files.

// Patterns implements treesitter.FilesRule: the lock.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Lock} }

// CheckFiles implements treesitter.FilesRule.
func (r *Rule) CheckFiles(fns []*treesitter.Function) string {
	if len(fns) == 0 {
		return "the files define no function"
	}
	lock := fns[0].Patterns[0]
	callees := treesitter.NewCallees(fns)
	excluded := map[*treesitter.Function][]string{} // with the path to the target
	for _, fn := range fns {
		for _, n := range fn.Inv.Functions {
			if fn.Func.Matches(n.Scoped) {
				excluded[fn] = []string{fn.Name()}
			}
		}
	}
	// excludedCall returns the callee a call reaches an excluded function
	// through, or nil.
	excludedCall := func(c *model.Call) *treesitter.Function {
		for _, g := range callees.Of(c) {
			if excluded[g] != nil {
				return g
			}
		}
		return nil
	}
	callees.Fixpoint(fns, func(fn *treesitter.Function, c *model.Call, g *treesitter.Function) bool {
		if excluded[fn] != nil || excluded[g] == nil || !c.Live() || stateAt(fn, c, lock) != asCalled {
			return false
		}
		excluded[fn] = append([]string{fn.Name()}, excluded[g]...)
		return true
	})
	taken := false
	for _, fn := range fns {
		f := facts[treesitter.Site]{lock: r.Lock.Raw}
		for _, a := range fn.Acquisitions() {
			taken = taken || model.MatchLock(a.Lock, lock)
		}
		for _, c := range fn.Calls() {
			g := excludedCall(&c)
			if g == nil || !c.MayRun() {
				continue
			}
			if a := heldAt(fn, &c, lock); a != nil {
				f.held = append(f.held, heldCall[treesitter.Site]{fn: fn.Name(), at: c.Node, lockedAt: a.Node, path: append([]string{fn.Name()}, excluded[g]...)})
			}
		}
		verdict(fn, f)
	}
	if !taken {
		return "lock " + r.Lock.Raw + " is taken by no function of the files"
	}
	return ""
}

// heldAt returns the acquisition of the lock that holds it at a call, or
// nil.
func heldAt(fn *treesitter.Function, c *model.Call, lock []string) *treesitter.Acquisition {
	acqs := fn.Acquisitions()
	for i := range acqs {
		if a := &acqs[i]; model.MatchLock(a.Lock, lock) && a.HeldAt(c.Node) {
			return a
		}
	}
	return nil
}

// stateAt says what the body decides of the lock at a call: held, given
// up by an explicit unlock after the body's last acquisition before the
// call (free), or as its callers had it.
func stateAt(fn *treesitter.Function, c *model.Call, lock []string) state {
	if heldAt(fn, c, lock) != nil {
		return held
	}
	last := -1
	for _, a := range fn.Acquisitions() {
		if model.MatchLock(a.Lock, lock) && a.Node.Start < c.Node.Start {
			last = a.Node.Start
		}
	}
	for _, u := range fn.Unlocks() {
		if model.MatchLock(u.Lock, lock) && u.Node.Start > last && u.Node.Start < c.Node.Start {
			return free
		}
	}
	return asCalled
}
