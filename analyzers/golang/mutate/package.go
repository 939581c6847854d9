package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
)

// Package is one loaded, type-checked package that holds targets of
// invariants, with what the mutant generators and the checker need.
type Package struct {
	Pkg   *packages.Package
	Fset  *token.FileSet
	Live  *live.Info
	Scope *resolve.Scope
	// Dir is the package's directory.
	Dir string
	// Src holds the bytes of each file the syntax was parsed from.
	Src map[string][]byte
	// FileOf maps each declaration to its file.
	FileOf map[*ast.FuncDecl]*ast.File
	// Decls maps functions and methods to their declarations.
	Decls map[*types.Func]*ast.FuncDecl
}

// Path implements mutant.Package.
func (p *Package) Path() string { return p.Pkg.PkgPath }

// NewPackage indexes a package loaded with syntax and types, reading the
// source of its files.
func NewPackage(pkg *packages.Package, li *live.Info) (*Package, error) {
	p := &Package{
		Pkg:    pkg,
		Fset:   pkg.Fset,
		Live:   li,
		Scope:  resolve.NewScope(pkg.Types, nil),
		Src:    map[string][]byte{},
		FileOf: map[*ast.FuncDecl]*ast.File{},
		Decls:  map[*types.Func]*ast.FuncDecl{},
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
		p.Src[name] = data
		p.Dir = filepath.Dir(name)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				p.FileOf[fd] = f
				if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					p.Decls[fn] = fd
				}
			}
		}
	}
	return p, nil
}

// target resolves a target function to its declaration.
func (p *Package) Target(n invariants.Name) (*ast.FuncDecl, error) {
	fn, err := p.Scope.Func(n)
	if err != nil {
		return nil, err
	}
	d := p.Decls[fn]
	if d == nil {
		return nil, fmt.Errorf("%s has no Go body in package %s", n.Short(), n.Pkg)
	}
	return d, nil
}

// liveCalls returns the live calls of any of fns in a declaration, in
// source order: the sites a revert of a required call would touch.
func (p *Package) LiveCalls(d *ast.FuncDecl, fns []*types.Func) []*ast.CallExpr {
	var out []*ast.CallExpr
	body := p.Live.Func(d)
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
func (p *Package) StmtOf(d *ast.FuncDecl, n ast.Node) (ast.Stmt, ast.Node) {
	path, _ := astutil.PathEnclosingInterval(p.FileOf[d], n.Pos(), n.End())
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

// FuncKey names a function declaration so that it can be found again in
// a mutated file: the receiver's type name (or "") and the function name.
type FuncKey struct{ recv, name string }

// KeyOf returns the key of a declaration.
func KeyOf(d *ast.FuncDecl) FuncKey {
	k := FuncKey{name: d.Name.Name}
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
func (k FuncKey) String() string {
	if k.recv == "" {
		return k.name
	}
	return "(" + k.recv + ")." + k.name
}

// findDecl finds a declaration by key in a file.
func findDecl(f *ast.File, k FuncKey) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && KeyOf(fd) == k {
			return fd
		}
	}
	return nil
}

// typeString writes a type for the mutant's own file, recording the
// imports it needs; a type of another package that is not exported
// cannot be written there.
func (e *Edits) TypeString(t types.Type) (string, error) {
	var err error
	s := types.TypeString(t, func(pkg *types.Package) string {
		if pkg == e.p.Pkg.Types {
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

// Targets returns the declarations of the invariant's functions that
// live in this package and resolve.
func (p *Package) Targets(inv *invariants.Invariant) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, n := range inv.Functions {
		if n.Pkg != p.Pkg.PkgPath {
			continue
		}
		if d, err := p.Target(n); err == nil {
			out = append(out, d)
		}
	}
	return out
}
