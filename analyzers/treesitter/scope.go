package treesitter

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Where a guard holds its lock, on a syntax tree of structured code: from
// the end of its declaration to the end of the block it is declared in
// (a Rust temporary: to the end of its statement), except after an
// explicit release (`lk.unlock()`, `drop(g)`) that can reach the point,
// until a relock (`lk.lock()`) that runs whenever the release did. A
// release followed in its block by a statement that leaves the function
// (`lk.unlock(); return;`) reaches nothing after that block; a release
// later in a loop that the guard's block holds reaches the top of the
// loop again.

// Guards returns the body's guards and their releases, computed once.
func (fn *Function) Guards() *model.Hold {
	if fn.hold == nil {
		fn.hold = fn.Hold()
	}
	return fn.hold
}

// HeldAt reports whether the guard holds its lock at n, and when it does
// not, why, as a phrase: "it is released at line 12".
func (fn *Function) HeldAt(g *model.Guard, n *syntax.Node) (bool, string) {
	switch {
	case !g.Live():
		return false, "it never runs: " + g.Dead
	case g.Scope == nil || (!g.Takes && g.NotHeld != ""):
		return false, g.NotHeld
	case n.Start < g.Node.End:
		if g.Node.Contains(n) {
			return false, "it is taken only once its statement has run"
		}
		return false, fmt.Sprintf("it is taken only at line %d, after this", fn.Line(g.Node))
	case !g.Scope.Contains(n):
		if g.Statement {
			return false, fmt.Sprintf("it holds the lock only from line %d to line %d", fn.File.Position(g.Scope.Start).Line, fn.File.Position(g.Scope.End).Line)
		}
		if g.LockCall {
			return false, fmt.Sprintf("it is taken on a branch that ends at line %d, before this", fn.File.Position(g.Scope.End).Line)
		}
		if isBlock(g.Scope) {
			return false, fmt.Sprintf("it is declared in a block that ends at line %d, before this", fn.File.Position(g.Scope.End).Line)
		}
		return false, g.NotHeld
	}
	if !isBlock(g.Scope) && !g.Statement && fn.nestedBody(g, n) {
		return false, g.NotHeld
	}
	if g.Name == "" {
		return true, ""
	}
	h := fn.Guards()
	for _, r := range h.Releases {
		if r.Guard != g.Name || r.Node.Start < g.Node.End || !g.Scope.Contains(r.Node) {
			continue
		}
		if r.Node.Start < n.Start && fn.Reaches(r.Node, n) && !fn.otherBranch(g, r.Node, n) && !fn.relocked(g, r.Node, n) {
			return false, fmt.Sprintf("it is released at line %d", fn.Line(r.Node))
		}
		if r.Node.Start > n.Start {
			if loop := fn.loopAround(g, r.Node, n); loop != nil && !fn.relocked(g, r.Node, &syntax.Node{Start: loop.End}) {
				return false, fmt.Sprintf("it is released at line %d, and the loop around both comes back here without it", fn.Line(r.Node))
			}
		}
	}
	return true, ""
}

// otherBranch reports whether a release r and n lie on the two branches
// of one if (`if (failed) { lock.Release(); ... } else { ...n... }`) with
// no loop around that if inside the guard's scope: one pass runs only
// one of them, and a loop could carry the release to n.
func (fn *Function) otherBranch(g *model.Guard, r, n *syntax.Node) bool {
	for a := r; a.Parent != nil; a = a.Parent {
		p := a.Parent
		if !p.Contains(n) {
			continue
		}
		if p.Kind != "if_statement" && p.Kind != "if_expression" {
			return false
		}
		if (a.Field != "consequence" && a.Field != "alternative") || a.Contains(n) {
			return false
		}
		for l := p.Parent; l != nil && l != g.Scope; l = l.Parent {
			if loopKinds[l.Kind] {
				return false
			}
		}
		return true
	}
	return false
}

// nestedBody reports whether n lies in a block, lambda or closure of a
// temporary guard's statement that its lock call is not part of: the
// guard is dropped when the statement's expression ends, not when a
// block it holds does.
func (fn *Function) nestedBody(g *model.Guard, n *syntax.Node) bool {
	for p := n.Parent; p != nil && p != g.Scope; p = p.Parent {
		if (isBlock(p) || p.Kind == "closure_expression" || p.Kind == "lambda_expression") && !p.Contains(g.Node) {
			return true
		}
	}
	return false
}

// Reaches reports whether control can go from a statement at r to n
// below it: no statement after r, in a block around r that does not hold
// n, leaves the function first.
func (fn *Function) Reaches(r, n *syntax.Node) bool {
	for a := r; a.Parent != nil && !a.Parent.Contains(n); a = a.Parent {
		if !isBlock(a.Parent) && a.Parent.Kind != "case_statement" {
			continue
		}
		if fn.leavesAfter(a) {
			return false
		}
	}
	return true
}

// leavesAfter reports whether a statement after a, in the block a is a
// statement of, leaves the function.
func (fn *Function) leavesAfter(a *syntax.Node) bool {
	after := false
	for _, s := range a.Parent.Children {
		if s == a {
			after = true
			continue
		}
		if after && s.Named && fn.lang.Leaves(fn.File, s) {
			return true
		}
	}
	return false
}

// relocked reports whether a relock of the guard comes after the release
// at r and before n, and runs whenever the release does: later in the
// release's own block, unconditionally.
func (fn *Function) relocked(g *model.Guard, r, n *syntax.Node) bool {
	block := r.Parent
	for block != nil && !isBlock(block) {
		block = block.Parent
	}
	if block == nil {
		return false
	}
	for _, l := range fn.Guards().Relocks {
		if l.Guard == g.Name && l.Node.Start >= r.End && l.Node.Start < n.Start && block.Contains(l.Node) && unconditional(l.Node, block) {
			return true
		}
	}
	return false
}

// loopAround returns the innermost loop inside the guard's scope, not
// holding the guard's declaration, around both a release and n, when the
// release reaches the loop's next iteration; nil otherwise.
func (fn *Function) loopAround(g *model.Guard, r, n *syntax.Node) *syntax.Node {
	for l := n.Parent; l != nil && l != g.Scope; l = l.Parent {
		if !loopKinds[l.Kind] || !l.Contains(r) {
			continue
		}
		if l.Contains(g.Node) {
			return nil
		}
		if fn.reachesWithin(r, l) {
			return l
		}
		return nil
	}
	return nil
}

// reachesWithin reports whether control can go from r to the end of the
// body of the loop l: no statement after r in a block inside l leaves the
// function first.
func (fn *Function) reachesWithin(r, l *syntax.Node) bool {
	for a := r; a.Parent != nil && a != l; a = a.Parent {
		if !isBlock(a.Parent) {
			continue
		}
		if fn.leavesAfter(a) {
			return false
		}
		if a.Parent == l {
			break
		}
	}
	return true
}

// loopKinds are the loops of every grammar.
var loopKinds = map[string]bool{
	"for_statement": true, "for_range_loop": true, "while_statement": true, "do_statement": true,
	"for_expression": true, "while_expression": true, "loop_expression": true,
}

// isBlock reports whether n is a block of statements in any grammar.
func isBlock(n *syntax.Node) bool {
	return n.Kind == "compound_statement" || n.Kind == "block" || n.Kind == "declaration_list"
}
