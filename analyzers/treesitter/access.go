package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
)

// Accesses lists the reads and writes of a field of typ in the function
// (model.Accessor), or nil with false when its language's front end does
// not tell accesses apart.
func (fn *Function) Accesses(typ, field string) ([]model.Access, bool) {
	a, ok := fn.lang.(model.Accessor)
	if !ok {
		return nil, false
	}
	return a.Accesses(fn.File, fn.Func, typ, field, fn.conf), true
}

// FieldType returns the tokens of the declared type of a field of typ,
// from the first of the invariant's files that declares it (typeFiles:
// a header of declarations alone too), or nil when none does.
func FieldType(fns []*Function, typ, field string) []string {
	a := accessorOf(fns)
	if a == nil {
		return nil
	}
	for _, f := range typeFilesOf(fns) {
		if t := a.FieldType(f, typ, field); t != nil {
			return t
		}
	}
	return nil
}

// accessorOf is the functions' front end as an Accessor, or nil.
func accessorOf(fns []*Function) model.Accessor {
	if len(fns) == 0 {
		return nil
	}
	a, _ := fns[0].lang.(model.Accessor)
	return a
}

// ParamNames lists the names of the function's parameters, in order.
func (fn *Function) ParamNames() []string {
	if a, ok := fn.lang.(model.Accessor); ok {
		return a.ParamNames(fn.File, fn.Func)
	}
	return nil
}

// Private reports whether one of the invariant's files (typeFiles)
// defines typ and declares the member function only in a private
// section of it (C++).
func Private(fns []*Function, typ, method string) bool {
	a := accessorOf(fns)
	if a == nil {
		return false
	}
	for _, f := range typeFilesOf(fns) {
		if a.Private(f, typ, method) {
			return true
		}
	}
	return false
}

// HasBases reports whether one of the invariant's files (typeFiles)
// defines typ as derived from other classes (C++).
func HasBases(fns []*Function, typ string) bool {
	a := accessorOf(fns)
	if a == nil {
		return false
	}
	for _, f := range typeFilesOf(fns) {
		if a.HasBases(f, typ) {
			return true
		}
	}
	return false
}
