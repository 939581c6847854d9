package syntax

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chain builds a tree n levels deep by hand, each level one node with one
// child, the innermost a leaf spanning the only byte of src.
func chain(n int) (*File, *Node) {
	f := &File{Path: "deep", Src: []byte("x"), lines: []int{0}, toks: []string{"x"}}
	root := &Node{Kind: "block", Named: true, End: 1, toksEnd: 1}
	cur := root
	for i := 1; i < n; i++ {
		c := &Node{Kind: "block", Named: true, End: 1, Parent: cur, toksEnd: 1}
		cur.Children = []*Node{c}
		cur = c
	}
	cur.Kind, cur.Bad = "ERROR", true
	return f, cur
}

func TestWalkersDoNotRecurse(t *testing.T) {
	// With the stack held to 8 MiB, a walker that recursed once per level
	// of a million would die of a stack overflow, which no test can
	// recover from: the test binary would crash.
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	const depth = 1_000_000
	f, leaf := chain(depth)
	root := leaf
	for root.Parent != nil {
		root = root.Parent
	}
	assert.Same(t, leaf, FirstBad(root))
	assert.Equal(t, depth, Depth(root, 2*depth))
	assert.Equal(t, 11, Depth(root, 10), "counts no further than the limit")
	assert.Equal(t, []string{"x"}, f.Tokens(root))
	n := 0
	Walk(root, func(*Node) bool { n++; return true })
	assert.Equal(t, depth, n)
	s := f.Sexp(root)
	assert.True(t, strings.HasPrefix(s, "(block (block"))
	assert.True(t, strings.HasSuffix(s, `(ERROR "x")`+strings.Repeat(")", depth-1)))
	assert.Error(t, f.TooDeep(root, "f"))
	assert.NoError(t, f.TooDeep(leaf, "f"))
}

func TestWalkSkipsChildrenWhenAsked(t *testing.T) {
	f, err := Parse("c", "a.c", []byte("void f(void) { g(h()); }\nvoid k(void) {}\n"))
	require.NoError(t, err)
	var seen []string
	Walk(f.Root, func(n *Node) bool {
		if n.Kind == "call_expression" || n.Kind == "function_definition" && f.Text(n.Child("declarator")) == "k(void)" {
			seen = append(seen, f.Text(n))
			return false
		}
		return true
	})
	assert.Equal(t, []string{"g(h())", "void k(void) {}"}, seen)
}

// leaves is the definition Tokens must agree with: the text of the
// non-empty leaves under n, in order, comments left out.
func leaves(f *File, n *Node) []string {
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

func TestTokensOfEveryNodeAreItsLeaves(t *testing.T) {
	files := map[Lang][]string{
		"rust": {"../testdata/rust/*.rs"},
		"cpp":  {"../testdata/cpp/*.cc"},
		"c":    {"../testdata/c/*.c"},
		"cuda": {"../testdata/cuda/*.cu", "../../../runtime/kernels/*.cu"},
	}
	checked := 0
	for lang, globs := range files {
		for _, g := range globs {
			paths, err := filepath.Glob(g)
			require.NoError(t, err)
			for _, p := range paths {
				src, err := os.ReadFile(p)
				require.NoError(t, err)
				f, err := Parse(lang, p, src)
				require.NoError(t, err)
				Walk(f.Root, func(n *Node) bool {
					want := leaves(f, n)
					if len(want) == 0 {
						want = nil
					}
					require.Equal(t, want, f.Tokens(n), "%s: %s at %v", p, n.Kind, f.Position(n.Start))
					checked++
					return true
				})
			}
		}
	}
	assert.Greater(t, checked, 8000, "the files hold too few nodes to check much")
}

func TestTokensCannotBeChangedThroughAppend(t *testing.T) {
	f, err := Parse("rust", "a.rs", []byte("fn f() { a.b(); c(); }\n"))
	require.NoError(t, err)
	var call *Node
	Walk(f.Root, func(n *Node) bool {
		if call == nil && n.Kind == "call_expression" {
			call = n
		}
		return true
	})
	require.NotNil(t, call)
	callee := f.Tokens(call.Child("function"))
	_ = append(callee, "!")
	assert.Equal(t, []string{"a", ".", "b", "(", ")"}, f.Tokens(call))
}
