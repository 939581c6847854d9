//go:build cgo

package lockorder

import (
	"fmt"
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
	callees.Fixpoint(fns, func(fn *treesitter.Function, c *model.Call, g *treesitter.Function) bool {
		if !c.Live() {
			return false
		}
		changed := false
		for i, t := range takes[g] {
			if _, ok := takes[fn][i]; !ok {
				takes[fn][i] = nativeTake{path: append([]string{fn.Name()}, t.path...), at: t.at}
				changed = true
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
		for _, c := range fn.Calls() {
			if !c.Live() {
				continue
			}
			for _, g := range callees.Of(&c) {
				for i, t := range takes[g] {
					for _, b := range later(nil, i, &c) {
						f.reversed = append(f.reversed, reversal[treesitter.Site]{fn: fn.Name(), at: c.Node, early: r.Locks[i].Raw, late: name(b), heldAt: b.Node,
							path: append([]string{fn.Name()}, t.path...), takenAt: t.at})
					}
				}
			}
		}
		verdict(fn, f)
	}
	for i, ok := range taken {
		if !ok {
			return "lock " + r.Locks[i].Raw + " is taken by no function of the files"
		}
	}
	return ""
}
