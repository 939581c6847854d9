package treesitter

import (
	"strings"
	"sync"

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
// locks, but an address is not its object), or whose tree is, with
// redundant parentheses and casts looked through (model.ExprKey), with
// whether they run: the bounds check `gid >= n` and the access `out[gid]`
// of an order rule. Each is the outermost node that matches; nested
// definitions are another function's.
func (fn *Function) Occurrences(pattern []string) []Occurrence {
	live := fn.lang.Liveness(fn.File, fn.Func, fn.conf)
	key := patternKey(fn.lang, pattern)
	var out []Occurrence
	syntax.Walk(fn.Func.Body, func(n *syntax.Node) bool {
		if n != fn.Func.Body && definitions[n.Kind] {
			return false
		}
		if !n.Named || statementKinds[n.Kind] || syntax.IsComment(n) {
			return true
		}
		if model.MatchExpr(fn.File.Tokens(n), pattern) || (key != nil && model.MatchKey(fn.File, n, key)) {
			out = append(out, Occurrence{At: n, Liveness: live(n)})
			return false
		}
		return true
	})
	return out
}

// patternKeys caches the tree keys of patterns by language and tokens:
// every definition of a target asks for the same few.
var patternKeys sync.Map // patternKeyID -> []string

type patternKeyID struct {
	lang model.Language
	src  string
}

// patternKey is the tree key of a pattern (model.ExprKey), or nil when
// the language gives no trees or its tokens, written back one space
// apart, do not parse again (then the tokens alone are compared). The
// spaces keep apart tokens that would otherwise run together (`a - -b`).
func patternKey(lang model.Language, pattern []string) []string {
	pt, ok := lang.(model.PatternTrees)
	if !ok || len(pattern) == 0 {
		return nil
	}
	id := patternKeyID{lang, strings.Join(pattern, " ")}
	if k, ok := patternKeys.Load(id); ok {
		return k.([]string)
	}
	var key []string
	if f, n, err := pt.PatternTree(id.src); err == nil {
		key = model.ExprKey(f, n)
	}
	patternKeys.Store(id, key)
	return key
}
