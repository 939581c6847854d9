package model

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Runner names a function that runs the lambdas and closures it is
// passed before it returns, as a scoped name.
func Runner(path string) invariants.Name {
	return invariants.Name{Raw: path, Scoped: strings.Split(path, "::")}
}

// RunnerCall reports whether the call n (a call_expression) calls one of
// the runners, by its callee's tokens.
func RunnerCall(f *syntax.File, n *syntax.Node, runners ...[]invariants.Name) bool {
	if n == nil || n.Kind != "call_expression" {
		return false
	}
	callee := f.Tokens(n.Child("function"))
	for _, rs := range runners {
		for _, r := range rs {
			if CallsName(callee, r.Scoped) {
				return true
			}
		}
	}
	return false
}

// RunArgument returns the call a lambda or closure is an argument of,
// when it is one (`std::call_once(flag, [&]{ ... })`), or nil.
func RunArgument(n *syntax.Node) *syntax.Node {
	p := n.Parent
	if p == nil || (p.Kind != "argument_list" && p.Kind != "arguments") {
		return nil
	}
	return p.Parent
}

// RunNames adds to called the local names passed to a runner in body
// (`auto init = [&]{ ... }; std::call_once(flag, init);`): a lambda bound
// to one of them runs.
func RunNames(f *syntax.File, body *syntax.Node, called map[string]bool, runners ...[]invariants.Name) {
	syntax.Walk(body, func(n *syntax.Node) bool {
		if RunnerCall(f, n, runners...) {
			for _, a := range n.Child("arguments").NamedChildren() {
				if a.Kind == "identifier" {
					called[f.Text(a)] = true
				}
			}
		}
		return true
	})
}
