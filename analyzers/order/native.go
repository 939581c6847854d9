package order

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Patterns implements treesitter.FunctionRule: first, then.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.First, r.Then} }

// Check implements treesitter.FunctionRule. Without a control-flow graph,
// a first call precedes a then call when the front end finds it dominates
// it on the tree (see treesitter.Dominance).
func (r *Rule) Check(fn *treesitter.Function) {
	calls := fn.Calls()
	var firsts []*syntax.Node
	for i := range calls {
		if calls[i].Live() && model.MatchCall(&calls[i], fn.Patterns[0]) {
			firsts = append(firsts, calls[i].Node)
		}
	}
	var thens []then
	dom := fn.Dominance(firsts)
	for i := range calls {
		if c := &calls[i]; c.Live() && model.MatchCall(c, fn.Patterns[1]) {
			thens = append(thens, then{at: c.Node, preceded: dom.Dominated(c.Node)})
		}
	}
	verdict(fn, fn.Name(), fn.At(), r.First.Raw, r.Then.Raw, thens)
}
