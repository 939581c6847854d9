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

// Fixpoint passes summaries from callees to their callers, as the Go
// front end's calls.Fixpoint does over a package: it calls step for
// every call of every function with each function the call may reach,
// in the functions' order, round after round, until a round in which no
// step reports a change. Summaries must only grow, so that the iteration
// ends; the last round changes nothing, so what it found is final. A
// call of a function by itself is left out: it adds nothing to its own
// summary.
//
// requires does not use it: it judges each caller of a function that
// needs the lock once, reporting as it goes, within one file, which is a
// walk over callers rather than a summary that grows.
func (cs Callees) Fixpoint(fns []*Function, step func(caller *Function, c *model.Call, callee *Function) bool) {
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			calls := fn.Calls()
			for i := range calls {
				for _, g := range cs.Of(&calls[i]) {
					if g != fn && step(fn, &calls[i], g) {
						changed = true
					}
				}
			}
		}
	}
}
