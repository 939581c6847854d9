package call

import (
	"fmt"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Ops are the reverts of a required call.
var Ops = []string{mutant.OpDelete, mutant.OpLineComment, mutant.OpBlockComment, mutant.OpIfFalse, mutant.OpConstFalse, mutant.OpAfterReturn, mutant.OpMoved, mutant.OpWrongRecv, mutant.OpClosure, mutant.OpString}

// Mutants implements mutate.Rule: the reverts of every live call of the
// required function (or of a helper under via) in every target of the
// package. With every_path, the call kept on one branch only is a revert
// too.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	to, err := p.Scope.Func(r.To)
	if err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	fns := append([]*types.Func{to}, mutate.ResolveFuncs(p.Scope, r.Via)...)
	ops := Ops
	if r.EveryPath {
		ops = append(ops[:len(ops):len(ops)], mutant.OpOneBranch)
	}
	var out []*mutant.Mutant
	for _, d := range p.Targets(inv) {
		calls := p.LiveCalls(d, fns)
		if len(calls) == 0 {
			out = append(out, mutate.NewMutant(inv, p, d, "locate", nil, fmt.Sprintf("no live call of %s in %s", r.To.Short(), mutate.KeyOf(d))))
			continue
		}
		out = append(out, p.SiteMutants(inv, d, calls, ops)...)
	}
	return out
}

// Vacuity implements mutate.Rule: a required call that is not there does
// not hold, which the baseline run reports, so a call rule is never
// vacuous.
func (r *Rule) Vacuity(*mutate.Package, *invariants.Invariant) []string { return nil }
