package treesitter

import "github.com/guardlint/guardlint/analyzers/treesitter/model"

// Callees resolves calls between the functions of a FilesRule's files by
// name: a call whose callee ends with a function's own name (`f()`,
// `x.f()`, `ns::f()`, `self.f()`) calls it. Every function of that name
// counts (overloads, methods of other classes): without types, that is
// the reading that misses no callee.
type Callees map[string][]*Function

// NewCallees indexes functions by their own name.
func NewCallees(fns []*Function) Callees {
	out := Callees{}
	for _, fn := range fns {
		name := fn.Func.Path[len(fn.Func.Path)-1]
		out[name] = append(out[name], fn)
	}
	return out
}

// Of returns the functions a call may call.
func (cs Callees) Of(c *model.Call) []*Function {
	if len(c.Callee) == 0 {
		return nil
	}
	return cs[c.Callee[len(c.Callee)-1]]
}
