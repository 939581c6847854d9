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
// from the first of the functions' files that declares it, or nil when
// none does.
func FieldType(fns []*Function, typ, field string) []string {
	seen := map[string]bool{}
	for _, fn := range fns {
		if seen[fn.File.Path] {
			continue
		}
		seen[fn.File.Path] = true
		if a, ok := fn.lang.(model.Accessor); ok {
			if t := a.FieldType(fn.File, typ, field); t != nil {
				return t
			}
		}
	}
	return nil
}

// ParamNames lists the names of the function's parameters, in order.
func (fn *Function) ParamNames() []string {
	if a, ok := fn.lang.(model.Accessor); ok {
		return a.ParamNames(fn.File, fn.Func)
	}
	return nil
}

// Private reports whether one of the functions' files defines typ and
// declares the member function only in a private section of it (C++).
func Private(fns []*Function, typ, method string) bool {
	seen := map[string]bool{}
	for _, fn := range fns {
		if seen[fn.File.Path] {
			continue
		}
		seen[fn.File.Path] = true
		if a, ok := fn.lang.(model.Accessor); ok && a.Private(fn.File, typ, method) {
			return true
		}
	}
	return false
}

// HasBases reports whether one of the functions' files defines typ as
// derived from other classes (C++).
func HasBases(fns []*Function, typ string) bool {
	seen := map[string]bool{}
	for _, fn := range fns {
		if seen[fn.File.Path] {
			continue
		}
		seen[fn.File.Path] = true
		if a, ok := fn.lang.(model.Accessor); ok && a.HasBases(fn.File, typ) {
			return true
		}
	}
	return false
}
