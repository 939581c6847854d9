package syntax

import (
	"go/token"
	"slices"
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Node is one node of a parsed file, copied out of tree-sitter.
type Node struct {
	// Kind is the grammar's node kind ("call_expression", "(", ...).
	Kind string
	// Field is the field name this node has in its parent, or "".
	Field string
	// Named is false for anonymous tokens such as punctuation.
	Named bool
	// Bad is set on ERROR and MISSING nodes.
	Bad bool
	// Start and End are byte offsets into the file.
	Start, End int
	Parent     *Node
	Children   []*Node
	// toks and toksEnd delimit the node's tokens in File.toks; toks is -1
	// for a node inside a comment, whose leaves File.toks leaves out.
	toks, toksEnd int32
}

// File is a parsed source file.
type File struct {
	Path string
	Lang Lang
	Src  []byte
	// Raw is the source before the invariant's macros were erased
	// (EraseMacros keeps every offset), where the thread-safety
	// annotations it blanks are still written; nil when nothing was
	// erased, and Src is the source as written.
	Raw  []byte
	Root *Node
	// lines holds the byte offset of every line start.
	lines []int
	// toks is the text of every leaf outside comments, in order; a node's
	// tokens are a range of it, so Tokens costs nothing per call.
	toks []string
}

// copyTree copies the subtree under the cursor, iteratively so that deep
// trees cannot exhaust the stack, and collects the tokens: the text of
// every non-empty leaf outside comments.
func copyTree(c *sitter.TreeCursor, g *grammar, src string) (*Node, []string) {
	var (
		toks      []string
		inComment int // how many comments enclose the node being copied
		mem       slabs
		root      *Node
	)
	// open holds the nodes being copied, innermost last, with the children
	// collected so far; a frame's buffer is reused by the next node at its
	// depth, and each node's children are copied to an exact slice when it
	// is done, so that no slice grows by appending.
	type frame struct {
		n    *Node
		kids []*Node
	}
	var open []frame
	enter := func() {
		n := c.Node()
		node := mem.node()
		node.Start, node.End, node.toks = int(n.StartByte()), int(n.EndByte()), int32(len(toks))
		if id := n.KindId(); int(id) < len(g.kinds) {
			node.Kind, node.Named = g.kinds[id], g.named[id]
		} else {
			node.Kind, node.Named = "ERROR", true
		}
		if fid := c.FieldId(); fid != 0 && int(fid) < len(g.fields) {
			node.Field = g.fields[fid]
		}
		node.Bad = node.Kind == "ERROR" || n.IsMissing()
		if inComment > 0 {
			node.toks = -1
		}
		if IsComment(node) {
			inComment++
		}
		if len(open) > 0 {
			top := &open[len(open)-1]
			node.Parent = top.n
			top.kids = append(top.kids, node)
		} else {
			root = node
		}
		if len(open) < cap(open) {
			open = open[:len(open)+1]
			open[len(open)-1].n = node
			open[len(open)-1].kids = open[len(open)-1].kids[:0]
		} else {
			open = append(open, frame{n: node})
		}
	}
	leave := func() {
		top := &open[len(open)-1]
		n := top.n
		n.Children = mem.children(top.kids)
		open = open[:len(open)-1]
		if len(n.Children) == 0 && inComment == 0 && n.End > n.Start && n.End <= len(src) {
			toks = append(toks, src[n.Start:n.End])
		}
		if IsComment(n) {
			inComment--
		}
		n.toksEnd = int32(len(toks))
	}
	enter()
	for {
		if c.GotoFirstChild() {
			enter()
			continue
		}
		leave()
		for !c.GotoNextSibling() {
			if len(open) == 0 || !c.GotoParent() {
				return root, toks
			}
			leave()
		}
		enter()
	}
}

// slabs hands out nodes and children slices from large blocks: a tree of
// millions of nodes costs a few thousand allocations, and its children
// slices no slack.
type slabs struct {
	nodes []Node
	kids  []*Node
}

// node returns a new zero node.
func (s *slabs) node() *Node {
	if len(s.nodes) == 0 {
		s.nodes = make([]Node, 4096)
	}
	n := &s.nodes[0]
	s.nodes = s.nodes[1:]
	return n
}

// children returns a copy of kids, nil for none.
func (s *slabs) children(kids []*Node) []*Node {
	if len(kids) == 0 {
		return nil
	}
	if len(kids) > len(s.kids) {
		s.kids = make([]*Node, max(len(kids), 1<<14))
	}
	out := s.kids[:len(kids):len(kids)]
	copy(out, kids)
	s.kids = s.kids[len(kids):]
	return out
}

// lineStarts returns the offset of the first byte of every line.
func lineStarts(src []byte) []int {
	lines := []int{0}
	for i, b := range src {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// Position returns the 1-based line and column (in bytes) of an offset.
func (f *File) Position(offset int) token.Position {
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > offset }) - 1
	if line < 0 {
		line = 0
	}
	return token.Position{Filename: f.Path, Offset: offset, Line: line + 1, Column: offset - f.lines[line] + 1}
}

// Text returns the source text of n, or "" for a nil node: error recovery
// can leave out any child, and callers need not check each one.
func (f *File) Text(n *Node) string {
	if n == nil {
		return ""
	}
	return string(f.Src[n.Start:n.End])
}

// Child returns the first child with the given field name, or nil; nil
// for a nil node too, like the other accessors.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// ChildrenOf returns every child with the given field name.
func (n *Node) ChildrenOf(field string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Field == field {
			out = append(out, c)
		}
	}
	return out
}

// NamedChildren returns the named children that are not comments.
func (n *Node) NamedChildren() []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Named && !IsComment(c) {
			out = append(out, c)
		}
	}
	return out
}

// Contains reports whether m lies inside n (or is n).
func (n *Node) Contains(m *Node) bool {
	for ; m != nil; m = m.Parent {
		if m == n {
			return true
		}
	}
	return false
}

// Innermost returns the nearest ancestor of n (not n) of one of the
// kinds, or nil.
func (n *Node) Innermost(kinds ...string) *Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if slices.Contains(kinds, p.Kind) {
			return p
		}
	}
	return nil
}

// IsComment reports whether n is a comment in any of the grammars.
func IsComment(n *Node) bool {
	switch n.Kind {
	case "comment", "line_comment", "block_comment":
		return true
	}
	return false
}

// CalledNames returns the names that calls under n call directly
// (`f(...)` with f an identifier), so that a lambda or closure bound to a
// local of that name can be known to run. The C family's and Rust's
// grammars both write such a call as a call_expression whose function is
// an identifier.
func (f *File) CalledNames(n *Node) map[string]bool {
	out := map[string]bool{}
	stack := []*Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == "call_expression" {
			if fn := n.Child("function"); fn != nil && fn.Kind == "identifier" {
				out[f.Text(fn)] = true
			}
		}
		stack = append(stack, n.Children...)
	}
	return out
}
