package model

import "github.com/guardlint/guardlint/analyzers/treesitter/syntax"

// An expression pattern is compared with the body's expressions by its
// tokens first (MatchExpr). Tokens alone miss two spellings of the same
// expression that a reader takes for one: redundant parentheses
// (`(row * nb)` for `row * nb`), and a subexpression under a cast
// (`src0 + row * nb` in `(device const T *) src0 + row * nb`, where
// the cast binds to src0 alone). So a pattern is also compared by its
// tree: each node that is not a leaf opens and closes a group, which
// keeps precedence (`(a + b) * c` is never `a + b * c`), and
// parentheses, casts and an implicit `this->` or `self.` are looked
// through, on both sides. A cast is looked through as a
// parenthesis is: `first: i < n` is met by `(int)i < n`, which compares
// the same value in another type.

// PatternTrees is a Language that gives a pattern's syntax tree, for the
// comparison by tree (ExprKey).
type PatternTrees interface {
	PatternTree(src string) (*syntax.File, *syntax.Node, error)
}

// The group marks of a key; no token of any language is either.
const (
	keyOpen  = "\x00("
	keyClose = "\x00)"
)

// ExprKey is the tree of an expression as a list of tokens and group
// marks, parentheses, casts and implicit receivers looked through.
func ExprKey(f *syntax.File, n *syntax.Node) []string {
	var out []string
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		n = throughTransparent(f, n)
		if syntax.IsComment(n) {
			return
		}
		if len(n.Children) == 0 {
			out = append(out, f.Text(n))
			return
		}
		out = append(out, keyOpen)
		for _, c := range n.Children {
			walk(c)
		}
		out = append(out, keyClose)
	}
	walk(n)
	return out
}

// MatchKey reports whether an expression's tree is the key's, stopping
// at the first difference (most nodes differ at their first token).
func MatchKey(f *syntax.File, n *syntax.Node, key []string) bool {
	i := 0
	var walk func(n *syntax.Node) bool
	walk = func(n *syntax.Node) bool {
		n = throughTransparent(f, n)
		if syntax.IsComment(n) {
			return true
		}
		if len(n.Children) == 0 {
			if i >= len(key) || key[i] != f.Text(n) {
				return false
			}
			i++
			return true
		}
		if i >= len(key) || key[i] != keyOpen {
			return false
		}
		i++
		for _, c := range n.Children {
			if !walk(c) {
				return false
			}
		}
		if i >= len(key) || key[i] != keyClose {
			return false
		}
		i++
		return true
	}
	return walk(n) && i == len(key)
}

// throughTransparent looks through the nodes that do not change which
// expression is meant: parentheses around one expression, a cast (C
// family and Rust's `as`), and a field reached through `this->` or
// `self.`.
func throughTransparent(f *syntax.File, n *syntax.Node) *syntax.Node {
	for {
		switch n.Kind {
		case "parenthesized_expression":
			if inner := soleNamed(n); inner != nil {
				n = inner
				continue
			}
		case "cast_expression", "type_cast_expression":
			if v := n.Child("value"); v != nil {
				n = v
				continue
			}
		case "field_expression":
			recv := n.Child("argument")
			if recv == nil {
				recv = n.Child("value")
			}
			field := n.Child("field")
			if recv != nil && field != nil && (recv.Kind == "this" || recv.Kind == "self") {
				n = field
				continue
			}
		}
		return n
	}
}

// soleNamed is the one named child of a node that is no comment, or nil.
func soleNamed(n *syntax.Node) *syntax.Node {
	var one *syntax.Node
	for _, c := range n.Children {
		if !c.Named || syntax.IsComment(c) {
			continue
		}
		if one != nil {
			return nil
		}
		one = c
	}
	return one
}
