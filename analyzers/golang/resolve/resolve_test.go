package resolve

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `package p

import "sync"

type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

type Buffer struct{}

func (b *Buffer) retain() {}

var evalMu sync.Mutex

func Eval() { evalMu.Lock(); defer evalMu.Unlock() }
`

func scope(t *testing.T) *Scope {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return NewScope(pkg, info)
}

func name(t *testing.T, s string) invariants.Name {
	n, err := invariants.ParseName(s, "", "example.com/p")
	require.NoError(t, err)
	return n
}

func TestResolve(t *testing.T) {
	s := scope(t)
	enc, err := s.Func(name(t, "(*Encoder).retain"))
	require.NoError(t, err)
	buf, err := s.Func(name(t, "(*Buffer).retain"))
	require.NoError(t, err)
	assert.NotSame(t, enc, buf, "the same method name on another type is another function")

	mu, err := s.Var(name(t, "evalMu"))
	require.NoError(t, err)
	assert.False(t, mu.IsField())
	refs, err := s.Var(name(t, "(Encoder).refs"))
	require.NoError(t, err)
	assert.True(t, refs.IsField())

	lock, err := s.Func(name(t, "(*sync.Mutex).Lock"))
	require.NoError(t, err, "an imported package is in scope")
	assert.Equal(t, "sync", lock.Pkg().Path())
}

func TestResolveErrors(t *testing.T) {
	s := scope(t)
	for in, want := range map[string]string{
		"(*Encoder).release": "Encoder has no method or field release; closest: refs, retain",
		"Evaluate":           "Evaluate is not declared in package example.com/p; closest: Eval",
		"(*Eval).x":          "Eval is not a type",
		"(*os.File).Close":   "package os is not imported by example.com/p",
		"evalMu":             "p.evalMu is not a function or method",
	} {
		_, err := s.Func(name(t, in))
		assert.EqualError(t, err, want, in)
	}
	_, err := s.Var(name(t, "Eval"))
	assert.EqualError(t, err, "p.Eval is not a variable or field")
}
