package calls

import (
	"fmt"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/rule"
)

// Entries says of the package's functions whether all their callers can
// be seen: a function whose callers cannot passes what it needs of them
// to nobody, and the rules report it there.
type Entries struct {
	pkg    *types.Package
	ifaces map[string][]*types.TypeName // by method name
	memo   map[*types.Func]string
}

// NewEntries returns the entry points of a package.
func NewEntries(pkg *types.Package) *Entries {
	return &Entries{pkg: pkg, memo: map[*types.Func]string{}}
}

// Of says why the callers of fn cannot be known ("exported function
// p.F"), or "" when they are all in view: then fn is called only by
// functions of its package, or through interfaces of no package it sees.
func (e *Entries) Of(fn *types.Func) string {
	if why, ok := e.memo[fn]; ok {
		return why
	}
	name := rule.FuncName(fn)
	recv := fn.Signature().Recv()
	var why string
	switch {
	case recv == nil && fn.Name() == "init":
		why = "init, which the Go runtime calls,"
	case recv == nil && fn.Name() == "main" && fn.Pkg().Name() == "main":
		why = "main"
	case recv == nil && fn.Exported():
		why = "exported function " + name
	case fn.Exported():
		why = "exported method " + name
	case recv != nil:
		if iface := e.Implements(fn); iface != "" {
			why = fmt.Sprintf("method %s, which can be called through interface %s,", name, iface)
		}
	}
	e.memo[fn] = why
	return why
}

// Implements names an interface of the package or of a package it
// imports, transitively, that the method's receiver type implements with
// this method; "" when there is none.
func (e *Entries) Implements(fn *types.Func) string {
	if e.ifaces == nil {
		e.index()
	}
	recv := fn.Signature().Recv().Type()
	if _, ok := recv.(*types.Pointer); !ok {
		recv = types.NewPointer(recv) // *T has T's methods too
	}
	for _, tn := range e.ifaces[fn.Name()] {
		it := tn.Type().Underlying().(*types.Interface)
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
			continue // a generic interface is implemented by instances, not checked here
		}
		if types.Implements(recv, it) {
			if tn.Pkg() == nil || tn.Pkg() == e.pkg {
				return tn.Name()
			}
			return tn.Pkg().Name() + "." + tn.Name()
		}
	}
	return ""
}

// index lists the interfaces of the package and of every package it
// imports, transitively, by method name.
func (e *Entries) index() {
	e.ifaces = map[string][]*types.TypeName{}
	seen := map[*types.Package]bool{}
	var add func(p *types.Package)
	add = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				for m := range it.Methods() {
					e.ifaces[m.Name()] = append(e.ifaces[m.Name()], tn)
				}
			}
		}
		for _, imp := range p.Imports() {
			add(imp)
		}
	}
	add(e.pkg)
	errType := types.Universe.Lookup("error").(*types.TypeName)
	e.ifaces["Error"] = append(e.ifaces["Error"], errType)
}
