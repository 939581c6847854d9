package syntax

import (
	"fmt"
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
}

// File is a parsed source file.
type File struct {
	Path string
	Lang Lang
	Src  []byte
	Root *Node
	// lines holds the byte offset of every line start.
	lines []int
}

// Parse parses src as lang. The tree is copied and every tree-sitter
// object is closed before it returns. A file with syntax errors still
// parses; FirstBad finds them.
func Parse(lang Lang, path string, src []byte) (*File, error) {
	g, err := grammarOf(lang)
	if err != nil {
		return nil, err
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tree := p.Parse(parseInput(lang, src), nil)
	if tree == nil {
		return nil, fmt.Errorf("%s: tree-sitter returned no tree", path)
	}
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	f := &File{Path: path, Lang: lang, Src: src}
	f.Root = copyTree(c, g)
	f.lines = lineStarts(src)
	return f, nil
}

// copyTree copies the subtree under the cursor, iteratively so that deep
// trees cannot exhaust the stack.
func copyTree(c *sitter.TreeCursor, g *grammar) *Node {
	mk := func(parent *Node) *Node {
		n := c.Node()
		id := n.KindId()
		node := &Node{Start: int(n.StartByte()), End: int(n.EndByte()), Parent: parent}
		if int(id) < len(g.kinds) {
			node.Kind, node.Named = g.kinds[id], g.named[id]
		} else {
			node.Kind, node.Named = "ERROR", true
		}
		if fid := c.FieldId(); fid != 0 && int(fid) < len(g.fields) {
			node.Field = g.fields[fid]
		}
		node.Bad = node.Kind == "ERROR" || n.IsMissing()
		if parent != nil {
			parent.Children = append(parent.Children, node)
		}
		return node
	}
	root := mk(nil)
	cur := root
	for {
		if c.GotoFirstChild() {
			cur = mk(cur)
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return root
			}
			cur = cur.Parent
			if cur == nil {
				return root
			}
		}
		cur = mk(cur.Parent)
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

// FirstBad returns the first ERROR or MISSING node inside n, or nil.
func FirstBad(n *Node) *Node {
	if n.Bad {
		return n
	}
	for _, c := range n.Children {
		if b := FirstBad(c); b != nil {
			return b
		}
	}
	return nil
}

// Tokens returns the text of the leaves under n, in order, leaving out
// comments: two spellings that differ only in spaces, line breaks or
// comments have the same tokens.
func (f *File) Tokens(n *Node) []string {
	if n == nil {
		return nil
	}
	var out []string
	var walk func(n *Node)
	walk = func(n *Node) {
		if IsComment(n) {
			return
		}
		if len(n.Children) == 0 {
			if n.End > n.Start {
				out = append(out, string(f.Src[n.Start:n.End]))
			}
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

// Sexp renders the subtree for debugging and test failure messages.
func (f *File) Sexp(n *Node) string {
	s := "(" + n.Kind
	if n.Field != "" {
		s = "(" + n.Field + ": " + n.Kind
	}
	if len(n.Children) == 0 && n.Named {
		s += " " + fmt.Sprintf("%q", f.Text(n))
	}
	for _, c := range n.Children {
		if c.Named {
			s += " " + f.Sexp(c)
		}
	}
	return s + ")"
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
