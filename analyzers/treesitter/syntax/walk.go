package syntax

import (
	"fmt"
	"strings"
)

// MaxDepth is how deep a tree the front ends follow below one function
// definition. Their walkers recurse once or twice per level of the tree,
// and a Go stack that outgrows its limit kills the process rather than
// panic, so a deeper definition is refused (reported as one that cannot
// be verified) instead of walked. Real code stays far below it: a chain of
// 30,000 `else if` arms is 60,000 levels deep. At this depth the deepest
// walker needs between 32 and 64 MiB of stack.
const MaxDepth = 100_000

// Walk calls visit for n and every node under it, parents before
// children and children in order; when visit returns false, the children
// of that node are skipped. It keeps its own stack, so a tree of any depth
// is walked.
func Walk(n *Node, visit func(*Node) bool) {
	if n == nil {
		return
	}
	stack := []*Node{n}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(top) {
			continue
		}
		for i := len(top.Children) - 1; i >= 0; i-- {
			stack = append(stack, top.Children[i])
		}
	}
}

// FirstBad returns the first ERROR or MISSING node inside n, or nil.
func FirstBad(n *Node) *Node {
	var bad *Node
	Walk(n, func(m *Node) bool {
		if bad != nil {
			return false
		}
		if m.Bad {
			bad = m
			return false
		}
		return true
	})
	return bad
}

// Depth returns the number of levels of the subtree under n (1 for a
// leaf), counting no further than limit+1: callers ask whether a subtree
// is deeper than limit, and an answer beyond it costs nothing more.
func Depth(n *Node, limit int) int {
	if n == nil {
		return 0
	}
	type item struct {
		n     *Node
		depth int
	}
	deepest := 0
	stack := []item{{n, 1}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top.depth > deepest {
			deepest = top.depth
			if deepest > limit {
				return deepest
			}
		}
		for _, c := range top.n.Children {
			stack = append(stack, item{c, top.depth + 1})
		}
	}
	return deepest
}

// TooDeep returns an error when the subtree under n is deeper than
// MaxDepth, naming what it is (a function, a condition) for the message.
func (f *File) TooDeep(n *Node, what string) error {
	if d := Depth(n, MaxDepth); d > MaxDepth {
		p := f.Position(n.Start)
		return fmt.Errorf("%s at %s:%d:%d nests more than %d levels deep, deeper than the front end follows", what, p.Filename, p.Line, p.Column, MaxDepth)
	}
	return nil
}

// Tokens returns the text of the leaves under n, in order, leaving out
// comments: two spellings that differ only in spaces, line breaks or
// comments have the same tokens. The tokens of every node are collected
// once, when the file is parsed, so this costs nothing; the slice is
// shared, and appending to it copies.
func (f *File) Tokens(n *Node) []string {
	if n != nil && n.toks < 0 {
		return f.leaves(n)
	}
	if n == nil || n.toksEnd <= n.toks || int(n.toksEnd) > len(f.toks) {
		return nil
	}
	return f.toks[n.toks:n.toksEnd:n.toksEnd]
}

// leaves collects the tokens of a node inside a comment (the `//` of a
// Rust doc comment), which the file's tokens do not hold.
func (f *File) leaves(n *Node) []string {
	var out []string
	Walk(n, func(m *Node) bool {
		if IsComment(m) {
			return false
		}
		if len(m.Children) == 0 && m.End > m.Start {
			out = append(out, string(f.Src[m.Start:m.End]))
		}
		return true
	})
	return out
}

// Sexp renders the subtree for debugging and test failure messages.
func (f *File) Sexp(n *Node) string {
	var b strings.Builder
	// Each entry is a node to open, or (with n nil) a closing parenthesis.
	stack := []*Node{n}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top == nil {
			b.WriteString(")")
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("(")
		if top.Field != "" {
			b.WriteString(top.Field + ": ")
		}
		b.WriteString(top.Kind)
		if len(top.Children) == 0 && top.Named {
			fmt.Fprintf(&b, " %q", f.Text(top))
		}
		stack = append(stack, nil)
		for i := len(top.Children) - 1; i >= 0; i-- {
			if top.Children[i].Named {
				stack = append(stack, top.Children[i])
			}
		}
	}
	return b.String()
}
