package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Dominance without a control-flow graph, for structured code: a call
// runs before another on every path when it runs unconditionally in an
// earlier sibling of one of the other's ancestors (an earlier statement
// of an enclosing block, the condition of the if that holds it, the
// receiver or arguments evaluated before it). It misses a call made on
// both arms of an if, which order then reports.

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
