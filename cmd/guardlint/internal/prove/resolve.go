package prove

import (
	"fmt"
	"go/types"

	"github.com/guardlint/guardlint/invariants"
)

// scope finds the packages a name can live in from one type-checked
// package: the package itself and everything it imports, transitively.
// It mirrors how the rule analyzers resolve names, so that the prover
// mutates exactly the code the analyzers check.
type scope map[string]*types.Package

// newScope collects pkg and its imports.
func newScope(pkg *types.Package) scope {
	s := scope{}
	var add func(p *types.Package)
	add = func(p *types.Package) {
		if p == nil || s[p.Path()] != nil {
			return
		}
		s[p.Path()] = p
		for _, imp := range p.Imports() {
			add(imp)
		}
	}
	add(pkg)
	return s
}

// lookup resolves a name to a package-level object, or a method or field
// of a named type.
func (s scope) lookup(n invariants.Name) (types.Object, error) {
	pkg := s[n.Pkg]
	if pkg == nil {
		return nil, fmt.Errorf("package %s is not in scope", n.Pkg)
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

// fn resolves a function or method name.
func (s scope) fn(n invariants.Name) (*types.Func, error) {
	obj, err := s.lookup(n)
	if err != nil {
		return nil, err
	}
	f, ok := obj.(*types.Func)
	if !ok {
		return nil, fmt.Errorf("%s is not a function or method", n.Short())
	}
	return f.Origin(), nil
}

// variable resolves a package-level variable or a field.
func (s scope) variable(n invariants.Name) (*types.Var, error) {
	obj, err := s.lookup(n)
	if err != nil {
		return nil, err
	}
	v, ok := obj.(*types.Var)
	if !ok {
		return nil, fmt.Errorf("%s is not a variable or field", n.Short())
	}
	return v, nil
}

// fns resolves a list of function names, skipping those that do not
// resolve (the analyzers report them).
func (s scope) fns(names []invariants.Name) []*types.Func {
	var out []*types.Func
	for _, n := range names {
		if f, err := s.fn(n); err == nil {
			out = append(out, f)
		}
	}
	return out
}
