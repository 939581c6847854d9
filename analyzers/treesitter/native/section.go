package native

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// The reverts of the kinds that ask what is held at a point (excludes,
// lock_order) bring code under a lock, or take a lock where another is
// held. They take the lock as the files already do, copied from an
// acquisition there: the guard's declaration, or the lock call and the
// call that gives it up. Nothing is spelled from the lock's pattern, whose
// mutex type and path to the mutex the front end does not know.

// Section is how the files take a lock for some statements: the
// statement that takes it, and for an explicit lock call the statement
// that gives it up ("" for a guard, which its block's end releases).
type Section struct {
	take, release string
}

// All returns every definition of the files of the invariant's globs:
// what a kind checked over the files at once (treesitter.FilesRule) reads.
func (c *Code) All() ([]*treesitter.Function, error) { return c.Src.All() }

// SectionOf finds how the functions take the lock whose tokens are lock:
// the first live acquisition that takes it in a statement of its own and
// holds it past that statement, a guard declaration before a lock call.
func SectionOf(fns []*treesitter.Function, lock []string) (Section, bool) {
	var call *Section
	for _, fn := range fns {
		for _, a := range fn.Acquisitions() {
			// A temporary guard gives the lock up at the end of its own
			// statement, and would bring nothing under it.
			if !a.Takes || a.Until <= a.Node.End || !model.MatchLock(a.Lock, lock) {
				continue
			}
			s, ok := stmtOf(fn, a.Node)
			if !ok {
				continue
			}
			text := s.Text(fn)
			if s.Node == a.Node {
				return Section{take: text}, true // a guard's statement
			}
			if call == nil && s.Alone(a.Node) {
				if release, ok := releaseOf(fn.File, a.Node); ok {
					call = &Section{take: text, release: release}
				}
			}
		}
	}
	if call != nil {
		return *call, true
	}
	return Section{}, false
}

// releaseOf writes the statement that gives up what a lock call takes:
// the call with its callee's name changed (`mu.unlock();`,
// `pthread_mutex_unlock(&mu);`).
func releaseOf(f *syntax.File, call *syntax.Node) (string, bool) {
	name := calleeName(call)
	if name == nil {
		return "", false
	}
	unlock := model.UnlockOf(f.Text(name))
	if unlock == "" {
		return "", false
	}
	return string(f.Src[call.Start:name.Start]) + unlock + string(f.Src[name.End:call.End]) + ";", true
}

// Around writes statements inside the section, as one block: the lock
// taken first, given up after them (a guard by the block's end).
func (s Section) Around(text, ind string) string {
	in := ind + "    "
	out := "{\n" + in + s.take
	if text != "" {
		out += "\n" + in + text
	}
	if s.release != "" {
		out += "\n" + in + s.release
	}
	return out + "\n" + ind + "}"
}

// UnderLock builds the revert that brings the statement of the node at
// under the section's lock.
func (c *Code) UnderLock(fn *treesitter.Function, at *syntax.Node, s Section, op string) *mutant.Mutant {
	st, ok := stmtOf(fn, at)
	if !ok {
		return c.Void(fn, op, "the call is not inside a statement")
	}
	if st.Node.Kind == "let_declaration" || st.Node.Kind == "declaration" {
		// A block around a declaration would end its name's scope.
		return c.Void(fn, op, "the call declares a variable, whose scope a block around it would end")
	}
	e := c.NewEdits()
	ind := lineIndent(fn.File.Src, st.Start)
	e.Replace(fn.File, st.Start, st.End, s.Around(st.Text(fn), ind))
	return c.Mutant(fn, op, e, "")
}

// InsertAfter builds the revert that adds text (statements) right after
// the statement of the node at, in the same block: a call made, or a lock
// taken, while what that statement takes is held.
func (c *Code) InsertAfter(fn *treesitter.Function, at *syntax.Node, text, op string) *mutant.Mutant {
	st, ok := stmtOf(fn, at)
	if !ok {
		return c.Void(fn, op, "the acquisition is not inside a statement")
	}
	e := c.NewEdits()
	text = strings.ReplaceAll(text, "\n", "\n"+lineIndent(fn.File.Src, st.Start))
	if why := c.PlaceAfter(e, fn, st, text); why != "" {
		return c.Void(fn, op, why)
	}
	return c.Mutant(fn, op, e, "")
}

// Swap builds the revert that exchanges two statements of one block (the
// statements of the nodes a and b).
func (c *Code) Swap(fn *treesitter.Function, a, b *syntax.Node, op string) *mutant.Mutant {
	sa, ok1 := stmtOf(fn, a)
	sb, ok2 := stmtOf(fn, b)
	switch {
	case !ok1 || !ok2:
		return c.Void(fn, op, "an acquisition is not inside a statement")
	case sa.Node.Parent != sb.Node.Parent:
		return c.Void(fn, op, "the acquisitions are not in the same block")
	case sa.Node == sb.Node:
		return c.Void(fn, op, "the acquisitions are one statement")
	}
	e := c.NewEdits()
	e.Replace(fn.File, sa.Start, sa.End, sb.Text(fn))
	e.Replace(fn.File, sb.Start, sb.End, sa.Text(fn))
	return c.Mutant(fn, op, e, "")
}

// Line is the line of a node in fn's file, for the site suffix of an op
// (call-added@42).
func Line(fn *treesitter.Function, n *syntax.Node) string {
	return fmt.Sprint(fn.File.Position(n.Start).Line)
}

// SameBlock reports whether the statements of two nodes of fn are in one
// block, the first before the second.
func SameBlock(fn *treesitter.Function, a, b *syntax.Node) bool {
	sa, ok1 := stmtOf(fn, a)
	sb, ok2 := stmtOf(fn, b)
	return ok1 && ok2 && sa.Node != sb.Node && sa.Node.Parent == sb.Node.Parent && sa.End <= sb.Start
}
