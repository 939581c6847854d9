// Package resolve resolves the Go names of invariants to go/types objects,
// from the point of view of one type-checked package. The rule analyzers
// and the mutation prover both use it, so that the prover mutates exactly
// the code the analyzers check.
package resolve

import (
	"fmt"
	"go/types"

	"github.com/guardlint/guardlint/invariants"
)

// Scope is the set of packages a name can live in, seen from one package:
// the package itself, everything it imports, transitively, and every
// package its code refers to (a method called on a value of a type from a
// package it does not import).
type Scope struct {
	from string
	pkgs map[string]*types.Package
}

// NewScope collects the packages visible from pkg. info may be nil; when
// set, the packages of every object it records as used are added.
func NewScope(pkg *types.Package, info *types.Info) *Scope {
	s := &Scope{from: pkg.Path(), pkgs: map[string]*types.Package{}}
	var add func(p *types.Package)
	add = func(p *types.Package) {
		if p == nil || s.pkgs[p.Path()] != nil {
			return
		}
		s.pkgs[p.Path()] = p
		for _, imp := range p.Imports() {
			add(imp)
		}
	}
	add(pkg)
	if info != nil {
		for _, obj := range info.Uses {
			add(obj.Pkg())
		}
	}
	return s
}

// Package returns the package with the import path, or nil.
func (s *Scope) Package(path string) *types.Package { return s.pkgs[path] }

// Lookup resolves a name to its object: a package-level object, or a
// method or field of a named type.
func (s *Scope) Lookup(n invariants.Name) (types.Object, error) {
	pkg := s.pkgs[n.Pkg]
	if pkg == nil {
		return nil, fmt.Errorf("package %s is not imported by %s", n.Pkg, s.from)
	}
	obj := pkg.Scope().Lookup(n.Ident)
	if obj == nil {
		return nil, fmt.Errorf("%s is not declared in package %s", n.Ident, n.Pkg)
	}
	if n.Member == "" {
		return obj, nil
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s is not a type", n.Ident)
	}
	member, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, n.Member)
	if member == nil {
		return nil, fmt.Errorf("%s has no method or field %s", n.Ident, n.Member)
	}
	return member, nil
}

// Func resolves a function or method name, generic ones to their origin.
func (s *Scope) Func(n invariants.Name) (*types.Func, error) {
	obj, err := s.Lookup(n)
	if err != nil {
		return nil, err
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, fmt.Errorf("%s is not a function or method", n.Short())
	}
	return fn.Origin(), nil
}

// Var resolves a package-level variable or a field.
func (s *Scope) Var(n invariants.Name) (*types.Var, error) {
	obj, err := s.Lookup(n)
	if err != nil {
		return nil, err
	}
	v, ok := obj.(*types.Var)
	if !ok {
		return nil, fmt.Errorf("%s is not a variable or field", n.Short())
	}
	return v, nil
}
