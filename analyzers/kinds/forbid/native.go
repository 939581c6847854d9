//go:build cgo

package forbid

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// Patterns implements treesitter.FunctionRule.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Call} }

// Check implements treesitter.FunctionRule.
func (r *Rule) Check(fn *treesitter.Function) {
	if len(fn.Shapes) > 0 && fn.Shapes[0] == model.ShapeSubscript {
		// A subscript is a call of the container's operator[] (Index in
		// Rust), matched by the expression's tokens.
		verdict(fn, fn.Name(), r.Call.Raw, fn.Occurrences(fn.Patterns[0]))
		return
	}
	var calls []treesitter.Occurrence
	for _, c := range fn.Calls() {
		if model.MatchCall(&c, fn.Patterns[0]) {
			calls = append(calls, treesitter.Occurrence{At: c.Node, Liveness: c.Liveness})
		}
	}
	verdict(fn, fn.Name(), r.Call.Raw, calls)
}

// PatternUses implements treesitter.PatternUser.
func (r *Rule) PatternUses() []model.Use { return []model.Use{model.UseCallOrSubscript} }

// SeenPatterns implements treesitter.SeenCalls: the forbidden call must be
// mentioned in the files, or the rule would pass on a misspelt name.
func (r *Rule) SeenPatterns() []invariants.Name { return []invariants.Name{r.Call} }

// UnseenHint implements treesitter.UnseenHint.
func (r *Rule) UnseenHint() string {
	return "a call that no file makes yet is forbidden by naming it in a comment of the files"
}
