package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Dominance without a control-flow graph, for structured code: a call
// runs before another on every path when it runs unconditionally in an
// earlier sibling of one of the other's ancestors (an earlier statement
// of an enclosing block, the condition of the if that holds it, the
// receiver or arguments evaluated before it) that itself runs whenever
// its parent does. It misses a call made on both arms of an if, which
// order then reports.

// Dominance answers, for one body and one set of `first` calls, whether
// a first call runs before a node on every path: the node holds a first
// call that runs unconditionally inside it (its receiver or arguments), or
// an earlier sibling of the node or of one of its ancestors up to the body
// does. It is built in time linear in the body, and answers each question
// in time linear in the nodes not yet asked about, so that a body of many
// calls, or of calls nested deep, costs no more than its size: asking each
// then call to climb the tree and scan siblings for each first call costs
// the cube of the size of a long body.
type Dominance struct {
	body *syntax.Node
	// index is the position of a node among its parent's children.
	index map[*syntax.Node]int
	// earliest is, for a node, the smallest index of a child that holds a
	// first call running whenever that child runs.
	earliest map[*syntax.Node]int
	// holds marks the nodes that hold such a first call other than
	// themselves.
	holds map[*syntax.Node]bool
	// climbed marks the nodes whose climb (see newDominance) is done.
	climbed map[*syntax.Node]bool
	// always is set when some first call runs whenever the body runs.
	always bool
	// after memoizes dominatedFromBefore.
	after map[*syntax.Node]bool
}

// newDominance prepares the questions for the first calls of a body.
func newDominance(body *syntax.Node, firsts []*syntax.Node) *Dominance {
	d := &Dominance{body: body, index: map[*syntax.Node]int{}, earliest: map[*syntax.Node]int{},
		holds: map[*syntax.Node]bool{}, climbed: map[*syntax.Node]bool{}, after: map[*syntax.Node]bool{}}
	if p := body.Parent; p != nil {
		for i, c := range p.Children {
			d.index[c] = i
		}
	}
	syntax.Walk(body, func(n *syntax.Node) bool {
		for i, c := range n.Children {
			d.index[c] = i
		}
		return true
	})
	// Climb from each first call while it runs whenever the node reached
	// runs, up to the body. Every node on the way holds it; every node's
	// parent learns that a child from that index on is preceded by it. A
	// node reached by an earlier climb has had the rest done already.
	reached := map[*syntax.Node]bool{} // climbs from here reach the body
	for _, first := range firsts {
		var path []*syntax.Node
		toBody := false
		for x := first; ; x = x.Parent {
			if x != first {
				d.holds[x] = true
			}
			if d.climbed[x] {
				toBody = reached[x]
				break
			}
			path = append(path, x)
			p := x.Parent
			if p == nil {
				break
			}
			// A child that may not run when its parent runs precedes its
			// later siblings on no path: the then arm of an if comes
			// before the else, a for's update before its body. The
			// statements of a case run in order once the case is entered.
			if x != body && conditionalEdge(p, x) && p.Kind != "case_statement" {
				break
			}
			if e, ok := d.earliest[p]; !ok || d.index[x] < e {
				d.earliest[p] = d.index[x]
			}
			if x == body {
				toBody = true
				break
			}
			if conditionalEdge(p, x) {
				break
			}
		}
		for _, x := range path {
			d.climbed[x], reached[x] = true, toBody
		}
		d.always = d.always || toBody
	}
	return d
}

// Dominated reports whether a first call other than n runs before n on
// every path through the body.
func (d *Dominance) Dominated(n *syntax.Node) bool {
	return d.holds[n] || d.dominatedFromBefore(n)
}

// Always reports whether one of the first calls runs whenever the body
// runs, so that the end of the body comes after it.
func (d *Dominance) Always() bool { return d.always }

// dominatedFromBefore reports whether an earlier sibling of n or of an
// ancestor of n, up to the body, holds a first call that runs whenever the
// sibling does.
func (d *Dominance) dominatedFromBefore(n *syntax.Node) bool {
	var path []*syntax.Node
	result := false
	for a := n; a != nil; a = a.Parent {
		if v, ok := d.after[a]; ok {
			result = v
			break
		}
		p := a.Parent
		if p == nil {
			break
		}
		path = append(path, a)
		if e, ok := d.earliest[p]; ok && e < d.index[a] {
			result = true
			break
		}
		if a == d.body {
			break
		}
	}
	// Each node on the path is dominated exactly when the one where the
	// climb stopped is: those below it had no earlier sibling to offer.
	for _, a := range path {
		d.after[a] = result
	}
	return result
}

// unconditional reports whether n runs whenever its ancestor top runs: no
// edge on the way up enters a branch, a loop body, a lambda or closure,
// a case or match arm, a handler, or the right of && and ||.
func unconditional(n, top *syntax.Node) bool {
	for c := n; c != top; c = c.Parent {
		p := c.Parent
		if p == nil || conditionalEdge(p, c) {
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
