package syntax

import (
	"go/token"
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
	var toks []string
	inComment := 0 // how many comments enclose the node being copied
	enter := func(parent *Node) *Node {
		n := c.Node()
		id := n.KindId()
		node := &Node{Start: int(n.StartByte()), End: int(n.EndByte()), Parent: parent, toks: int32(len(toks))}
		if int(id) < len(g.kinds) {
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
		if parent != nil {
			parent.Children = append(parent.Children, node)
		}
		return node
	}
	leave := func(n *Node) {
		if len(n.Children) == 0 && inComment == 0 && n.End > n.Start && n.End <= len(src) {
			toks = append(toks, src[n.Start:n.End])
		}
		if IsComment(n) {
			inComment--
		}
		n.toksEnd = int32(len(toks))
	}
	root := enter(nil)
	cur := root
	for {
		if c.GotoFirstChild() {
			cur = enter(cur)
			continue
		}
		leave(cur)
		for !c.GotoNextSibling() {
			if !c.GotoParent() || cur.Parent == nil {
				return root, toks
			}
			cur = cur.Parent
			leave(cur)
		}
		cur = enter(cur.Parent)
	}
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

// IsComment reports whether n is a comment in any of the grammars.
func IsComment(n *Node) bool {
	switch n.Kind {
	case "comment", "line_comment", "block_comment":
		return true
	}
	return false
}
