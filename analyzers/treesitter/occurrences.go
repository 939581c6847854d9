package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// definitions are the nodes that hold another function's code: a nested
// definition, a local class with a body, a Rust item.
var definitions = map[string]bool{
	"function_definition": true, "class_specifier": true, "struct_specifier": true, "union_specifier": true,
	"function_item": true, "impl_item": true, "trait_item": true, "mod_item": true,
}

// statementKinds end the search for an expression: a statement's tokens
// are never a pattern's.
var statementKinds = map[string]bool{
	"expression_statement": true, "compound_statement": true, "block": true, "condition_clause": true,
	"declaration": true, "let_declaration": true, "return_statement": true,
}

// Occurrences lists the expressions of the body whose tokens are a
// pattern's (an implicit `this->` or `self.` dropped from both, as for
// locks, but an address is not its object), with whether they run: the
// bounds check `gid >= n` and the access `out[gid]` of an order rule. Each is the outermost node with
// those tokens; nested definitions are another function's.
func (fn *Function) Occurrences(pattern []string) []Occurrence {
	live := fn.lang.Liveness(fn.File, fn.Func, fn.conf)
	var out []Occurrence
	syntax.Walk(fn.Func.Body, func(n *syntax.Node) bool {
		if n != fn.Func.Body && definitions[n.Kind] {
			return false
		}
		if n.Named && !statementKinds[n.Kind] && !syntax.IsComment(n) && model.MatchExpr(fn.File.Tokens(n), pattern) {
			out = append(out, Occurrence{At: n, Liveness: live(n)})
			return false
		}
		return true
	})
	return out
}
