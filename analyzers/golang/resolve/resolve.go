// Package resolve resolves the Go names of invariants to go/types objects,
// from the point of view of one type-checked package. The rule analyzers
// and the mutation prover both use it, so that the prover mutates exactly
// the code the analyzers check.
package resolve

import (
	"errors"
	"fmt"
	"go/types"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/types/typeutil"
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

// PackageOf returns the visible package a name lives in, or nil when
// none of its readings is visible here or more than one is.
func (s *Scope) PackageOf(n invariants.Name) *types.Package {
	_, pkg, _ := s.reading(n)
	return pkg
}

// Lookup resolves a name to its object: a package-level object, or a
// method or field of a named type. A name that does not resolve says how
// far it got and suggests the closest names there: import paths, the
// package's declarations, or the type's methods and fields.
func (s *Scope) Lookup(n invariants.Name) (types.Object, error) {
	n, pkg, err := s.reading(n)
	if err != nil {
		return nil, err
	}
	obj := pkg.Scope().Lookup(n.Ident)
	if obj == nil {
		return nil, fmt.Errorf("%s is not declared in package %s%s", n.Ident, n.Pkg, invariants.Suggest(n.Ident, slices.Values(pkg.Scope().Names())))
	}
	if n.Member == "" {
		return obj, nil
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s is not a type", n.Ident)
	}
	if err := checkTypeParams(tn, n); err != nil {
		return nil, err
	}
	member, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, n.Member)
	if member == nil {
		return nil, fmt.Errorf("%s has no method or field %s%s", n.Ident, n.Member, invariants.Suggest(n.Member, members(tn.Type())))
	}
	return member, nil
}

// Owner resolves the named type that declares a member name: the struct
// whose field a lock is.
func (s *Scope) Owner(n invariants.Name) (*types.TypeName, error) {
	n, pkg, err := s.reading(n)
	if err != nil {
		return nil, err
	}
	tn, ok := pkg.Scope().Lookup(n.Ident).(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s is not a type in package %s", n.Ident, n.Pkg)
	}
	return tn, nil
}

// reading returns the name with the one reading whose package is visible
// here, and that package. A name the driver resolved has one reading; one
// it could not (a go vet unit sees its direct imports only, and a
// //guardlint:requires annotation is read by the analyzer) is decided
// here, by the same rule.
func (s *Scope) reading(n invariants.Name) (invariants.Name, *types.Package, error) {
	if n.Readings == nil {
		pkg := s.pkgs[n.Pkg]
		if pkg == nil {
			return n, nil, fmt.Errorf("package %s is not imported by %s%s", n.Pkg, s.from, invariants.Suggest(n.Pkg, maps.Keys(s.pkgs)))
		}
		return n, pkg, nil
	}
	var found []invariants.Reading
	var paths []string
	for _, r := range n.Readings {
		paths = append(paths, r.Pkg)
		if s.pkgs[r.Pkg] != nil {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return n, nil, fmt.Errorf("none of the packages %s is imported by %s%s", strings.Join(paths, ", "), s.from, s.suggestPackages(paths))
	case 1:
		r := found[0]
		n.Pkg, n.Ident, n.Member, n.Readings = r.Pkg, r.Ident, r.Member, nil
		return n, s.pkgs[r.Pkg], nil
	}
	return n, nil, errors.New(n.Ambiguous(found))
}

// suggestPackages names the visible import paths closest to any of the
// paths a name was read with.
func (s *Scope) suggestPackages(paths []string) string {
	var out []string
	for _, p := range paths {
		for _, c := range invariants.Closest(p, maps.Keys(s.pkgs)) {
			if !slices.Contains(out, c) && len(out) < 3 {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "; closest: " + strings.Join(out, ", ")
}

// checkTypeParams checks the type parameters a name writes against the
// type: none for a type that is not generic, as many as it declares for
// one that is. Leaving them out is fine: (*atomic.Pointer).Load and
// (*atomic.Pointer[T]).Load name the same method.
func checkTypeParams(tn *types.TypeName, n invariants.Name) error {
	if n.TypeParams == nil {
		return nil
	}
	named, _ := tn.Type().(*types.Named)
	if named == nil || named.TypeParams().Len() == 0 {
		return fmt.Errorf("%s is not generic, but the name gives it type parameters [%s]", n.Ident, strings.Join(n.TypeParams, ", "))
	}
	tps := named.TypeParams()
	if tps.Len() != len(n.TypeParams) {
		want := make([]string, tps.Len())
		for i := range want {
			want[i] = tps.At(i).Obj().Name()
		}
		return fmt.Errorf("%s has %d type parameters [%s], the name gives %d", n.Ident, tps.Len(), strings.Join(want, ", "), len(n.TypeParams))
	}
	return nil
}

// members yields the names of the methods and fields of t and of *t,
// promoted ones included, for suggestions.
func members(t types.Type) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, sel := range typeutil.IntuitiveMethodSet(t, nil) {
			if !yield(sel.Obj().Name()) {
				return
			}
		}
		seen := map[types.Type]bool{}
		var fields func(t types.Type) bool
		fields = func(t types.Type) bool {
			st, ok := t.Underlying().(*types.Struct)
			if !ok || seen[t] {
				return true
			}
			seen[t] = true
			for f := range st.Fields() {
				if !yield(f.Name()) {
					return false
				}
				if f.Embedded() && !fields(derefType(f.Type())) {
					return false
				}
			}
			return true
		}
		fields(t)
	}
}

// derefType returns the element type of a pointer, or t.
func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
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
