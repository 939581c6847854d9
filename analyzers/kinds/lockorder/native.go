//go:build cgo

package lockorder

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet: the order over every function of the
// invariant's files. A function takes a lock by a guard or an explicit
// lock call, and through the functions of the files it calls; it holds a
// lock where a guard of it is in scope or a lock call has not been
// undone.

// Patterns implements treesitter.FilesRule: the locks, in order.
func (r *Rule) Patterns() []invariants.Name { return r.Locks }

// nativeTake is where a function of the files takes a listed lock.
type nativeTake struct {
	path []string // from the function to the one that takes it
	at   string   // file:line
	// via is the call not followed on the path (callee at file:line),
	// for a take that only such a call leads to.
	via string
}

// CheckFiles implements treesitter.FilesRule.
func (r *Rule) CheckFiles(fns []*treesitter.Function) string {
	if len(fns) == 0 {
		return "the files define no function"
	}
	pats := fns[0].Patterns
	listed := func(lock []string) int {
		for i, p := range pats {
			if model.MatchLock(lock, p) {
				return i
			}
		}
		return -1
	}
	callees := treesitter.NewCallees(fns)
	var unfollowed treesitter.Unfollowed
	takes := map[*treesitter.Function]map[int]nativeTake{}
	taken := make([]bool, len(pats))
	for _, fn := range fns {
		takes[fn] = map[int]nativeTake{}
		for _, a := range fn.Acquisitions() {
			if i := listed(a.Lock); i >= 0 && a.Takes {
				taken[i] = true
				if _, ok := takes[fn][i]; !ok {
					pos := fn.File.Position(a.Node.Start)
					takes[fn][i] = nativeTake{path: []string{fn.Name()}, at: fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)}
				}
			}
		}
	}
	// Each live call, resolved once: the functions of the files it
	// calls, or unknown when it is not followed.
	type edge struct {
		c       model.Call
		gs      []*treesitter.Function
		unknown bool
	}
	edges := map[*treesitter.Function][]edge{}
	for _, fn := range fns {
		for _, c := range fn.Calls() {
			if c.Live() {
				gs, unknown := callees.From(fn, &c)
				edges[fn] = append(edges[fn], edge{c, gs, unknown})
			}
		}
	}
	// mayTake is where a function may take a listed lock through a call
	// that is not followed, which takes does not count: a call of it
	// with a later lock held is said once, not reported.
	mayTake := map[*treesitter.Function]map[int]nativeTake{}
	for _, fn := range fns {
		mayTake[fn] = map[int]nativeTake{}
	}
	treesitter.Fixpoint(fns, func(fn *treesitter.Function) bool {
		changed := false
		for _, e := range edges[fn] {
			if e.unknown {
				pos := fn.File.Position(e.c.Node.Start)
				via := fmt.Sprintf("%s at %s:%d", strings.Join(e.c.Callee, ""), filepath.Base(pos.Filename), pos.Line)
				for _, g := range callees.Named(&e.c) {
					for _, m := range []map[int]nativeTake{takes[g], mayTake[g]} {
						for i, t := range m {
							_, ok1 := takes[fn][i]
							_, ok2 := mayTake[fn][i]
							if !ok1 && !ok2 && g != fn {
								if t.via == "" {
									t.via = via
								}
								mayTake[fn][i] = nativeTake{path: append([]string{fn.Name()}, t.path...), at: t.at, via: t.via}
								changed = true
							}
						}
					}
				}
				continue
			}
			for _, g := range e.gs {
				for i, t := range takes[g] {
					if _, ok := takes[fn][i]; !ok && g != fn {
						takes[fn][i] = nativeTake{path: append([]string{fn.Name()}, t.path...), at: t.at}
						delete(mayTake[fn], i)
						changed = true
					}
				}
				for i, t := range mayTake[g] {
					_, ok1 := takes[fn][i]
					_, ok2 := mayTake[fn][i]
					if !ok1 && !ok2 && g != fn {
						mayTake[fn][i] = nativeTake{path: append([]string{fn.Name()}, t.path...), at: t.at, via: t.via}
						changed = true
					}
				}
			}
		}
		return changed
	})
	order := r.order()
	if r.Unlisted == UnlistedLast {
		order += ", then every other lock"
	}
	for _, fn := range fns {
		f := facts[treesitter.Site]{order: order}
		acqs := fn.Acquisitions()
		// later returns the acquisitions held at a point of locks that
		// come after listed lock i.
		later := func(at *treesitter.Acquisition, i int, c *model.Call) []*treesitter.Acquisition {
			var out []*treesitter.Acquisition
			for k := range acqs {
				b := &acqs[k]
				if b == at || (c == nil && !b.HeldAt(at.Node)) || (c != nil && !b.HeldAt(c.Node)) {
					continue
				}
				j := listed(b.Lock)
				if j > i || (j < 0 && r.Unlisted == UnlistedLast) {
					out = append(out, b)
				}
			}
			return out
		}
		name := func(b *treesitter.Acquisition) string {
			if j := listed(b.Lock); j >= 0 {
				return r.Locks[j].Raw
			}
			return "the unlisted lock " + strings.Join(b.Lock, "")
		}
		for k := range acqs {
			a := &acqs[k]
			i := listed(a.Lock)
			if i < 0 || !a.Takes {
				continue
			}
			for _, b := range later(a, i, nil) {
				f.reversed = append(f.reversed, reversal[treesitter.Site]{fn: fn.Name(), at: a.Node, early: r.Locks[i].Raw, late: name(b), heldAt: b.Node})
			}
		}
		for _, e := range edges[fn] {
			c := e.c
			// Not followed: said once, where a function of that name (or
			// one the call leads to through another call not followed)
			// takes a lock that would be a reverse edge here.
			maybe := func(g *treesitter.Function, m map[int]nativeTake) {
				for i := range pats {
					if t, ok := m[i]; ok && g != fn && len(later(nil, i, &c)) > 0 {
						what := fmt.Sprintf("%s takes %s at %s (%s)", t.path[len(t.path)-1], r.Locks[i].Raw, t.at, core.CallPath(append([]string{fn.Name()}, t.path...)))
						if t.via != "" {
							what += ", through " + t.via + ", not followed"
						}
						unfollowed.Add(fn, &c, what)
						return
					}
				}
			}
			if e.unknown {
				for _, g := range callees.Named(&c) {
					maybe(g, takes[g])
					maybe(g, mayTake[g])
				}
				continue
			}
			// One finding per call and pair of locks, however many
			// functions of the files it may call take the lock.
			seen := map[[2]string]bool{}
			for _, g := range e.gs {
				maybe(g, mayTake[g])
				for i := range pats {
					t, ok := takes[g][i]
					if !ok {
						continue
					}
					for _, b := range later(nil, i, &c) {
						key := [2]string{r.Locks[i].Raw, name(b)}
						if seen[key] {
							continue
						}
						seen[key] = true
						f.reversed = append(f.reversed, reversal[treesitter.Site]{fn: fn.Name(), at: c.Node, early: r.Locks[i].Raw, late: name(b), heldAt: b.Node,
							path: append([]string{fn.Name()}, t.path...), takenAt: t.at})
					}
				}
			}
		}
		verdict(fn, f)
	}
	if why := unfollowed.String(); why != "" {
		return why
	}
	for i, ok := range taken {
		if !ok {
			return "lock " + r.Locks[i].Raw + " is taken by no function of the files" + treesitter.ClosestLock(fns, pats[i])
		}
	}
	return ""
}
