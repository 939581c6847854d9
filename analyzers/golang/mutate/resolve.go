package mutate

import (
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/invariants"
)

// ResolveFuncs resolves a list of function names, skipping those that do
// not resolve (the analyzers report them). Names resolve through package
// resolve, as in the rule analyzers, so the prover mutates exactly the
// code the analyzers check.
func ResolveFuncs(s *resolve.Scope, names []invariants.Name) []*types.Func {
	var out []*types.Func
	for _, n := range names {
		if f, err := s.Func(n); err == nil {
			out = append(out, f)
		}
	}
	return out
}
