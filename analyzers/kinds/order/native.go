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
	firstOcc, firstValue := occurrences(fn, 0)
	for _, o := range firstOcc {
		if o.Live() {
			firsts = append(firsts, o.At)
		}
	}
	var thens []then[treesitter.Site]
	dom := fn.Dominance(firsts)
	thenOcc, thenValue := occurrences(fn, 1)
	for _, o := range thenOcc {
		if n := o.At; o.Live() {
			thens = append(thens, then[treesitter.Site]{at: n, preceded: dom.Dominated(n)})
		}
	}
	verdict(fn, fn.Name(), fn.At(), r.First.Raw, r.Then.Raw, thens, words{exprs: isExpr(fn, 0) || isExpr(fn, 1) || firstValue || thenValue})
}

// isExpr reports whether the i-th pattern is an expression that is no
// call.
func isExpr(fn *treesitter.Function, i int) bool {
	return i < len(fn.Shapes) && fn.Shapes[i] != model.ShapeName && fn.Shapes[i] != model.ShapeCall
}

// occurrences lists the calls or expressions matching the i-th pattern,
// and says whether a name matched as a value. A name (`map_mutex`,
// `offset0`) matches its calls and its uses as a value that is not the
// callee of a call: a variable is never called, and a bounds check on
// it (`then: offset0`) is about where its value is read.
func occurrences(fn *treesitter.Function, i int) ([]treesitter.Occurrence, bool) {
	if isExpr(fn, i) {
		return fn.Occurrences(fn.Patterns[i]), false
	}
	var out []treesitter.Occurrence
	for _, c := range fn.Calls() {
		if model.MatchCall(&c, fn.Patterns[i]) {
			out = append(out, treesitter.Occurrence{At: c.Node, Liveness: c.Liveness})
		}
	}
	value := false
	if i < len(fn.Shapes) && fn.Shapes[i] == model.ShapeName {
		for _, o := range fn.Occurrences(fn.Patterns[i]) {
			if !isCallee(o.At) {
				out = append(out, o)
				value = true
			}
		}
	}
	return out, value
}

// isCallee reports whether a node is what a call calls, or a part of
// it: `f` in `f()`, `enc->retain` in `enc->retain()`, a macro's path.
func isCallee(n *syntax.Node) bool {
	for ; n.Parent != nil; n = n.Parent {
		switch p := n.Parent; {
		case n.Field == "function" && (p.Kind == "call_expression" || p.Kind == "macro_invocation"):
			return true
		case n.Field == "macro" && p.Kind == "macro_invocation":
			return true
		case p.Kind == "field_expression" || p.Kind == "qualified_identifier" || p.Kind == "scoped_identifier" || p.Kind == "template_function" || p.Kind == "generic_function":
			continue
		}
		return false
	}
	return false
}
