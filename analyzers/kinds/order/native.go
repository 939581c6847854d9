//go:build cgo

package order

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Patterns implements treesitter.FunctionRule: first, then.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.First, r.Then} }

// PatternUses implements treesitter.PatternUser: first and then are calls
// or any expression (a bounds check, the access it guards).
func (r *Rule) PatternUses() []model.Use { return []model.Use{model.UseExpr, model.UseExpr} }

// Check implements treesitter.FunctionRule. Without a control-flow graph,
// a first precedes a then when the front end finds it dominates it on the
// tree (see treesitter.Dominance). A pattern that names or spells a call
// matches calls; any other expression (`gid >= n`, `out[gid]`) matches
// the expressions with its tokens.
func (r *Rule) Check(fn *treesitter.Function) {
	var firsts []*syntax.Node
	for _, o := range occurrences(fn, 0) {
		if o.Live() {
			firsts = append(firsts, o.At)
		}
	}
	var thens []then[treesitter.Site]
	dom := fn.Dominance(firsts)
	for _, o := range occurrences(fn, 1) {
		if n := o.At; o.Live() {
			thens = append(thens, then[treesitter.Site]{at: n, preceded: dom.Dominated(n)})
		}
	}
	verdict(fn, fn.Name(), fn.At(), r.First.Raw, r.Then.Raw, thens, words{exprs: isExpr(fn, 0) || isExpr(fn, 1)})
}

// isExpr reports whether the i-th pattern is an expression that is no
// call.
func isExpr(fn *treesitter.Function, i int) bool {
	return i < len(fn.Shapes) && fn.Shapes[i] != model.ShapeName && fn.Shapes[i] != model.ShapeCall
}

// occurrences lists the calls or expressions matching the i-th pattern.
func occurrences(fn *treesitter.Function, i int) []treesitter.Occurrence {
	if isExpr(fn, i) {
		return fn.Occurrences(fn.Patterns[i])
	}
	var out []treesitter.Occurrence
	for _, c := range fn.Calls() {
		if model.MatchCall(&c, fn.Patterns[i]) {
			out = append(out, treesitter.Occurrence{At: c.Node, Liveness: c.Liveness})
		}
	}
	return out
}
