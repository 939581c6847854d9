package mutate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortedDeclsFollowFileNames: the order does not depend on the order in
// which the loader added the files to the file set.
func TestSortedDeclsFollowFileNames(t *testing.T) {
	fset := token.NewFileSet()
	p := &Package{Fset: fset, Decls: map[*types.Func]*ast.FuncDecl{}}
	// b.go enters the file set first, so its positions are the lower.
	for _, f := range []struct{ name, src string }{
		{"b.go", "package p\nfunc B1() {}\nfunc B2() {}\n"},
		{"a.go", "package p\nfunc A1() {}\nfunc A2() {}\n"},
	} {
		file, err := parser.ParseFile(fset, f.name, f.src, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fd := d.(*ast.FuncDecl)
			p.Decls[types.NewFunc(fd.Pos(), nil, fd.Name.Name, nil)] = fd
		}
	}
	var names []string
	for _, d := range p.SortedDecls() {
		names = append(names, d.Name.Name)
	}
	require.Equal(t, []string{"A1", "A2", "B1", "B2"}, names)
}
