package prove

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/live"
	"github.com/guardlint/guardlint/analyzers/resolve"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
)

// goPackage is one loaded, type-checked package that holds targets of
// invariants, with what the mutant generators and the checker need.
type goPackage struct {
	pkg   *packages.Package
	fset  *token.FileSet
	live  *live.Info
	scope *resolve.Scope
	dir   string
	// src holds the bytes of each file the syntax was parsed from.
	src map[string][]byte
	// fileOf maps each declaration to its file.
	fileOf map[*ast.FuncDecl]*ast.File
	// decls maps functions and methods to their declarations.
	decls map[*types.Func]*ast.FuncDecl
}

// newGoPackage indexes a package loaded with syntax and types, reading the
// source of its files.
func newGoPackage(pkg *packages.Package, li *live.Info) (*goPackage, error) {
	p := &goPackage{
		pkg:    pkg,
		fset:   pkg.Fset,
		live:   li,
		scope:  resolve.NewScope(pkg.Types, nil),
		src:    map[string][]byte{},
		fileOf: map[*ast.FuncDecl]*ast.File{},
		decls:  map[*types.Func]*ast.FuncDecl{},
	}
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.Pos()).Name()
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if len(data) != pkg.Fset.File(f.Pos()).Size() {
			// A cgo-generated file or a changed file: positions would not
			// map back to the source.
			return nil, fmt.Errorf("%s: source differs from the parsed file", name)
		}
		p.src[name] = data
		p.dir = filepath.Dir(name)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				p.fileOf[fd] = f
				if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					p.decls[fn] = fd
				}
			}
		}
	}
	return p, nil
}

// target resolves a target function to its declaration.
func (p *goPackage) target(n invariants.Name) (*ast.FuncDecl, error) {
	fn, err := p.scope.Func(n)
	if err != nil {
		return nil, err
	}
	d := p.decls[fn]
	if d == nil {
		return nil, fmt.Errorf("%s has no Go body in package %s", n.Short(), n.Pkg)
	}
	return d, nil
}

// liveCalls returns the live calls of any of fns in a declaration, in
// source order: the sites a revert of a required call would touch.
func (p *goPackage) liveCalls(d *ast.FuncDecl, fns []*types.Func) []*ast.CallExpr {
	var out []*ast.CallExpr
	body := p.live.Func(d)
	if body == nil {
		return nil
	}
	for _, o := range body.Calls {
		if o.Dead != "" || !o.Is(fns...) {
			continue
		}
		if c, ok := o.Node.(*ast.CallExpr); ok {
			out = append(out, c)
		}
	}
	return out
}

// stmtOf returns the innermost statement that holds n, and the node that
// holds that statement (a block, a case clause, or another statement when
// the statement is an init or post statement).
func (p *goPackage) stmtOf(d *ast.FuncDecl, n ast.Node) (ast.Stmt, ast.Node) {
	path, _ := astutil.PathEnclosingInterval(p.fileOf[d], n.Pos(), n.End())
	for i, node := range path {
		if s, ok := node.(ast.Stmt); ok {
			if i+1 < len(path) {
				return s, path[i+1]
			}
			return s, nil
		}
	}
	return nil, nil
}

// funcKey names a function declaration so that it can be found again in
// a mutated file: the receiver's type name (or "") and the function name.
type funcKey struct{ recv, name string }

// keyOf returns the key of a declaration.
func keyOf(d *ast.FuncDecl) funcKey {
	k := funcKey{name: d.Name.Name}
	if d.Recv != nil && len(d.Recv.List) == 1 {
		t := d.Recv.List[0].Type
		for {
			switch x := t.(type) {
			case *ast.StarExpr:
				t = x.X
				continue
			case *ast.IndexExpr:
				t = x.X
				continue
			case *ast.IndexListExpr:
				t = x.X
				continue
			case *ast.ParenExpr:
				t = x.X
				continue
			}
			break
		}
		if id, ok := t.(*ast.Ident); ok {
			k.recv = id.Name
		}
	}
	return k
}

// String formats the key as the declaration reads: (T).m or f.
func (k funcKey) String() string {
	if k.recv == "" {
		return k.name
	}
	return "(" + k.recv + ")." + k.name
}

// findDecl finds a declaration by key in a file.
func findDecl(f *ast.File, k funcKey) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && keyOf(fd) == k {
			return fd
		}
	}
	return nil
}

// typeString writes a type for the mutant's own file, recording the
// imports it needs; a type of another package that is not exported
// cannot be written there.
func (e *edits) typeString(t types.Type) (string, error) {
	var err error
	s := types.TypeString(t, func(pkg *types.Package) string {
		if pkg == e.p.pkg.Types {
			return ""
		}
		name, ok := e.imports[pkg.Path()]
		if !ok {
			name = fmt.Sprintf("guardlintimp%d", len(e.imports))
			e.imports[pkg.Path()] = name
		}
		return name
	})
	// Unexported names of other packages cannot be spelled.
	ast.Inspect(mustParseType(s), func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && !sel.Sel.IsExported() {
			err = fmt.Errorf("type %s is not exported from its package", s)
		}
		return err == nil
	})
	return s, err
}
