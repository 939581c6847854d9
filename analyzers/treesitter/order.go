package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// checkOrder: every live call matching `then` is preceded, on every path
// from the entry, by a live call matching `first`. Without a control-flow
// graph this is decided on the tree: a `first` call counts for a `then`
// call when it runs unconditionally in an earlier sibling of one of the
// `then` call's ancestors (an earlier statement of an enclosing block, the
// condition of the if that holds it, the receiver or arguments evaluated
// before it). That is dominance for structured code; it misses a `first`
// made on both arms of an if, which is reported.
func (t *target) checkOrder(f *syntax.File, fn *model.Func) []core.Finding {
	calls := t.lang.Calls(f, fn, t.conf)
	var firsts []*syntax.Node
	for i := range calls {
		if calls[i].Live() && model.MatchCall(&calls[i], t.first) {
			firsts = append(firsts, calls[i].Node)
		}
	}
	var out []core.Finding
	thens := 0
	for i := range calls {
		c := &calls[i]
		if !c.Live() || !model.MatchCall(c, t.pattern) {
			continue
		}
		thens++
		if !dominated(c.Node, firsts, fn.Body) {
			out = append(out, report(t.inv, f, c.Node, "%s must call %s before this call of %s, on every path", qualified(fn), t.inv.Order.First.Raw, t.inv.Order.Then.Raw))
		}
	}
	if thens == 0 {
		out = append(out, report(t.inv, f, fn.Name, "%s no longer makes a live call of %s, so the order %s before %s cannot be checked", qualified(fn), t.inv.Order.Then.Raw, t.inv.Order.First.Raw, t.inv.Order.Then.Raw))
	}
	return out
}

// dominated reports whether one of the first calls runs before then on
// every path through body.
func dominated(then *syntax.Node, firsts []*syntax.Node, body *syntax.Node) bool {
	for _, first := range firsts {
		if first == then {
			continue
		}
		// A first call among then's own receiver or arguments runs before
		// the call it feeds.
		if then.Contains(first) && unconditional(first, then) {
			return true
		}
		for a := then; a != nil && a != body.Parent; a = a.Parent {
			p := a.Parent
			if p == nil {
				break
			}
			for _, sib := range p.Children {
				if sib == a {
					break
				}
				if sib.Contains(first) && unconditional(first, sib) {
					return true
				}
			}
			if a == body {
				break
			}
		}
	}
	return false
}

// unconditional reports whether n runs whenever its ancestor top runs: no
// edge on the way up enters a branch, a loop body, a lambda or closure,
// a case or match arm, a handler, or the right of && and ||.
func unconditional(n, top *syntax.Node) bool {
	for c := n; c != top; c = c.Parent {
		p := c.Parent
		if p == nil {
			return false
		}
		if conditionalEdge(p, c) {
			return false
		}
	}
	return true
}

// conditionalEdge reports whether child c of p may not run when p runs.
func conditionalEdge(p, c *syntax.Node) bool {
	switch c.Field {
	case "consequence", "alternative", "update":
		return true
	case "body":
		switch p.Kind {
		case "do_statement", "loop_expression", "function_definition", "function_item", "unsafe_block", "async_block":
			return false
		}
		return true
	case "right":
		if op := p.Child("operator"); op != nil && (op.Kind == "&&" || op.Kind == "||") {
			return true
		}
	}
	switch p.Kind {
	case "lambda_expression", "closure_expression", "switch_statement", "case_statement", "match_block", "match_arm",
		"catch_clause", "try_statement", "conditional_expression":
		return c.Field != "condition" && c.Field != "value"
	}
	return false
}
