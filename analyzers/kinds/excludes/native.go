//go:build cgo

package excludes

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
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
	targets := map[*treesitter.Function]bool{}
	for _, fn := range fns {
		for _, n := range fn.Inv.Functions {
			if fn.Func.Matches(n.Scoped) {
				excluded[fn] = []string{fn.Name()}
				targets[fn] = true
			}
		}
	}
	edges := map[*treesitter.Function][]edge{}
	for _, fn := range fns {
		for _, c := range fn.Calls() {
			gs, unknown := callees.From(fn, &c)
			edges[fn] = append(edges[fn], edge{c, gs, unknown})
		}
	}
	// excludedCall returns the callee a call reaches an excluded function
	// through, or nil.
	//
	// A call on a receiver of unknown type with a target's own name is a
	// call of that target, as `call` and `forbid` match calls by name
	// (`streams_[id].synchronize()` calls Stream::synchronize): a rule
	// that forbids a call must miss none. Only the functions between the
	// call and a target need the receiver's type to be followed.
	excludedCall := func(e *edge) *treesitter.Function {
		for _, g := range e.gs {
			if excluded[g] != nil {
				return g
			}
		}
		if e.unknown {
			for _, g := range callees.Named(&e.c) {
				if targets[g] {
					return g
				}
			}
		}
		return nil
	}
	// mayExclude is a function that may call a target through a call not
	// followed (for want of its receiver's type): the path, and the call.
	type maybe struct {
		path []string
		via  string
	}
	mayExclude := map[*treesitter.Function]maybe{}
	var unfollowed treesitter.Unfollowed
	treesitter.Fixpoint(fns, func(fn *treesitter.Function) bool {
		if excluded[fn] != nil {
			return false
		}
		changed := false
		for i := range edges[fn] {
			e := &edges[fn][i]
			if !e.c.Live() || stateAt(fn, &e.c, lock) != asCalled {
				continue
			}
			if g := excludedCall(e); g != nil {
				excluded[fn] = append([]string{fn.Name()}, excluded[g]...)
				delete(mayExclude, fn)
				changed = true
				break
			}
			if _, ok := mayExclude[fn]; ok {
				continue
			}
			for _, g := range reach(callees, e) {
				if g == fn {
					continue
				}
				if m, ok := mayExclude[g]; ok && !e.unknown {
					mayExclude[fn] = maybe{append([]string{fn.Name()}, m.path...), m.via}
					changed = true
					break
				}
				if excluded[g] != nil && e.unknown {
					pos := fn.File.Position(e.c.Node.Start)
					mayExclude[fn] = maybe{append([]string{fn.Name()}, excluded[g]...), fmt.Sprintf("%s at %s:%d", strings.Join(e.c.Callee, ""), filepath.Base(pos.Filename), pos.Line)}
					changed = true
					break
				}
			}
		}
		return changed
	})
	taken := false
	for _, fn := range fns {
		f := facts[treesitter.Site]{lock: r.Lock.Raw}
		for _, a := range fn.Acquisitions() {
			taken = taken || model.MatchLock(a.Lock, lock)
		}
		for i := range edges[fn] {
			e := &edges[fn][i]
			c := e.c
			if !c.MayRun() {
				continue
			}
			g := excludedCall(e)
			if g == nil {
				// Not followed: said once, where a function of its name
				// (or one it leads to through a call not followed) calls
				// a target with the lock held.
				if heldAt(fn, &c, lock) == nil {
					continue
				}
				for _, n := range reach(callees, e) {
					if excluded[n] != nil && e.unknown && n != fn {
						unfollowed.Add(fn, &c, core.CallPath(append([]string{fn.Name()}, excluded[n]...))+" may run with "+r.Lock.Raw+" held")
						break
					}
					if m, ok := mayExclude[n]; ok && n != fn {
						unfollowed.Add(fn, &c, core.CallPath(append([]string{fn.Name()}, m.path...))+" may run with "+r.Lock.Raw+" held, through "+m.via+", not followed")
						break
					}
				}
				continue
			}
			if a := heldAt(fn, &c, lock); a != nil {
				f.held = append(f.held, heldCall[treesitter.Site]{fn: fn.Name(), at: c.Node, lockedAt: a.Node, path: append([]string{fn.Name()}, excluded[g]...)})
			}
		}
		verdict(fn, f)
	}
	if !taken {
		return "lock " + r.Lock.Raw + " is taken by no function of the files" + treesitter.ClosestLock(fns, lock)
	}
	return unfollowed.String()
}

// edge is a call, resolved once: the functions of the files it calls,
// or unknown when it is not followed.
type edge struct {
	c       model.Call
	gs      []*treesitter.Function
	unknown bool
}

// reach is what a call may call: the functions it is followed to, or for
// a call not followed, every function of its name.
func reach(callees *treesitter.Callees, e *edge) []*treesitter.Function {
	if e.unknown {
		return callees.Named(&e.c)
	}
	return e.gs
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
