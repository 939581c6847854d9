package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Balance of explicit lock calls, on a syntax tree of structured code: an
// exit (a return, the end of the body) gives up a mutex that a lock call
// took when an unlock of it runs on every path from the lock call to the
// exit. The question is asked of the statements before the exit, in its
// block and in every block around it: one of them, after the lock call,
// unlocks on every path through it that goes on (an unlock call; an if
// whose arms each unlock or leave; a block holding such a statement). A
// branch that leaves the function is judged at its own exit.
//
// What it does not see: an unlock in a loop's body (the body may not run)
// or in a switch's cases, and a goto that jumps over an unlock to a label
// after it (the unlock is taken for one that runs), which would be a
// missed finding, never a false one. Exceptions and calls that never
// return are not exits: a path that throws with the mutex held is not
// followed, as Go's panics are not (docs/invariants.md).

// Unlocked reports whether every path from the lock call g to the exit n
// goes through an unlock of g's mutex.
func (fn *Function) Unlocked(g *model.Guard, n *syntax.Node) bool {
	u := unlocker{fn: fn, g: g, release: map[*syntax.Node]bool{}, memo: map[*syntax.Node]bool{}}
	for _, r := range fn.Guards().Releases {
		if r.Guard == g.Name && r.Node.Start >= g.Node.End {
			u.release[r.Node] = true
		}
	}
	if len(u.release) == 0 {
		return false
	}
	if u.always(n) {
		return true // `return (unlock(&mu), v);`
	}
	for a := n; a.Parent != nil && a != fn.Func.Body; a = a.Parent {
		p := a.Parent
		if !isBlock(p) && p.Kind != "case_statement" && p.Kind != "labeled_statement" {
			continue
		}
		for _, s := range p.Children {
			if s == a {
				break
			}
			if s.Named && s.Start >= g.Node.End && u.always(s) {
				return true
			}
		}
	}
	return false
}

// unlocker answers, for one lock call, whether a statement unlocks its
// mutex on every path through it that goes on.
type unlocker struct {
	fn      *Function
	g       *model.Guard
	release map[*syntax.Node]bool
	memo    map[*syntax.Node]bool
}

func (u unlocker) always(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	if v, ok := u.memo[n]; ok {
		return v
	}
	v := u.compute(n)
	u.memo[n] = v
	return v
}

func (u unlocker) compute(n *syntax.Node) bool {
	if u.release[n] {
		return true
	}
	switch n.Kind {
	case "if_statement":
		if u.always(n.Child("condition")) {
			return true
		}
		alt := n.Child("alternative")
		return alt != nil && u.arm(n.Child("consequence")) && u.arm(alt)
	case "else_clause":
		for _, c := range n.NamedChildren() {
			if !syntax.IsComment(c) {
				return u.arm(c)
			}
		}
		return false
	case "while_statement", "switch_statement":
		return u.always(n.Child("condition"))
	case "for_statement":
		return u.always(n.Child("initializer")) || u.always(n.Child("condition"))
	case "for_range_loop":
		return u.always(n.Child("right"))
	case "do_statement":
		return u.always(n.Child("body")) || u.always(n.Child("condition"))
	case "conditional_expression":
		return u.always(n.Child("condition"))
	case "binary_expression":
		if op := n.Child("operator"); op != nil && (op.Kind == "&&" || op.Kind == "||") {
			return u.always(n.Child("left"))
		}
	case "lambda_expression", "try_statement", "function_definition", "class_specifier", "struct_specifier":
		return false
	}
	for _, c := range n.Children {
		if c.Named && u.always(c) {
			return true
		}
	}
	return false
}

// arm reports whether a branch unlocks, or leaves (a return, a throw, a
// jump), on every path through it: a branch that leaves is judged at its
// own exit, or where it jumps to.
func (u unlocker) arm(n *syntax.Node) bool {
	return u.always(n) || u.leaves(n)
}

// leaves reports whether a statement never completes normally.
func (u unlocker) leaves(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	if isBlock(n) {
		var last *syntax.Node
		for _, c := range n.NamedChildren() {
			if !syntax.IsComment(c) {
				last = c
			}
		}
		return last != nil && u.leaves(last)
	}
	switch n.Kind {
	case "goto_statement", "break_statement", "continue_statement":
		return true
	}
	return u.fn.lang.Leaves(u.fn.File, n)
}
