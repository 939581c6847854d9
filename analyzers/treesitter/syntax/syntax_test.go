package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTokensLeaveOutComments(t *testing.T) {
	f, err := Parse("rust", "a.rs", []byte("fn f() {\n    msg_send![encoder, /* why */ retain];\n}\n"))
	require.NoError(t, err)
	body := f.Root.Children[0].Child("body")
	require.NotNil(t, body)
	assert.Equal(t, []string{"{", "msg_send", "!", "[", "encoder", ",", "retain", "]", ";", "}"}, f.Tokens(body))
	assert.Nil(t, FirstBad(f.Root))
}

func TestFirstBadAndPosition(t *testing.T) {
	f, err := Parse("c", "a.c", []byte("void f(void) {\n  g(;\n}\n"))
	require.NoError(t, err)
	bad := FirstBad(f.Root)
	require.NotNil(t, bad, f.Sexp(f.Root))
	p := f.Position(bad.Start)
	assert.Equal(t, "a.c", p.Filename)
	assert.Equal(t, 2, p.Line)
}

func TestEveryGrammarLoads(t *testing.T) {
	for _, l := range []Lang{"c", "cpp", "cuda", "rust"} {
		_, err := Parse(l, "x", []byte(""))
		assert.NoError(t, err, l)
	}
	_, err := Parse("java", "x", nil)
	assert.ErrorContains(t, err, `no tree-sitter grammar for lang "java"`)
}

func TestDeepTreeDoesNotRecurse(t *testing.T) {
	// A deeply nested expression is copied without exhausting the stack.
	src := "int x = "
	for i := 0; i < 5000; i++ {
		src += "("
	}
	src += "1"
	for i := 0; i < 5000; i++ {
		src += ")"
	}
	f, err := Parse("c", "deep.c", []byte(src+";\n"))
	require.NoError(t, err)
	assert.Equal(t, "translation_unit", f.Root.Kind)
}
