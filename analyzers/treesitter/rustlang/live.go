package rustlang

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// walker visits a body in execution order and records every call and
// macro invocation with its liveness.
type walker struct {
	f      *syntax.File
	c      *model.Config
	calls  []model.Call
	called map[string]bool // local names called as name(...)
	onStmt func(n *syntax.Node, s core.Liveness)
}

// newWalker prepares a walker for a body, with the local names it calls.
func newWalker(f *syntax.File, body *syntax.Node, c *model.Config) *walker {
	w := &walker{f: f, c: c, called: f.CalledNames(body)}
	model.RunNames(f, body, w.called, runners, c.Runners)
	return w
}

// runners are the standard functions that run the closure they are
// passed before they return: std::thread::scope, std::panic::catch_unwind
// and std::sync::Once's call_once (the first time, which is when the code
// it guards is written to run).
var runners = []invariants.Name{
	model.Runner("std::thread::scope"), model.Runner("std::panic::catch_unwind"),
	model.Runner("Once::call_once"), model.Runner("Once::call_once_force"),
}

// runBy reports whether a closure is passed to a runner, built in or
// declared by the invariant (`runs:`).
func (w *walker) runBy(n *syntax.Node) bool {
	return model.RunnerCall(w.f, model.RunArgument(n), runners, w.c.Runners)
}

// block walks a block's statements and reports whether it never falls
// through. Code after a diverging statement is dead; a statement under a
// cfg that does not hold is dead.
func (w *walker) block(n *syntax.Node, s core.Liveness) bool {
	var term *syntax.Node
	for i, ch := range n.Children {
		if !ch.Named || syntax.IsComment(ch) || ch.Kind == "attribute_item" {
			continue
		}
		cur := s
		if term != nil {
			cur = s.Because(fmt.Sprintf("after the %s at line %d, which never falls through", divergeName(w.f, term), w.f.Position(term.Start).Line))
		}
		if ok, attr := cfgEnabled(w.f, attrsBefore(n.Children, i), w.c); !ok {
			cur = cur.Because("under `" + cfgText(w.f, attr) + "`, which does not hold")
		}
		if w.stmt(ch, cur) && term == nil {
			term = ch
		}
	}
	return term != nil
}

// stmt walks one statement or tail expression; it reports whether it
// diverges.
func (w *walker) stmt(n *syntax.Node, s core.Liveness) bool {
	if w.onStmt != nil {
		w.onStmt(n, s)
	}
	if isItem(n) {
		return false // a nested fn, impl, struct ... is not this function's code
	}
	w.expr(n, s)
	return diverges(w.f, n)
}

// isItem reports whether n is an item, which a block may declare but which
// does not run as part of the block.
func isItem(n *syntax.Node) bool {
	switch n.Kind {
	case "function_item", "impl_item", "trait_item", "mod_item", "struct_item", "enum_item", "union_item",
		"const_item", "static_item", "type_item", "macro_definition", "use_declaration", "extern_crate_declaration",
		"function_signature_item", "foreign_mod_item":
		return true
	}
	return false
}

// expr walks an expression and records its calls.
func (w *walker) expr(n *syntax.Node, s core.Liveness) {
	switch {
	case isItem(n):
		return
	case n.Kind == "block":
		w.block(n, s)
		return
	case n.Kind == "if_expression":
		w.ifExpr(n, s)
		return
	case n.Kind == "while_expression":
		cond := n.Child("condition")
		w.expr(cond, s)
		bs := s
		if constBool(w.f, cond) == "false" {
			bs = s.Because("in a loop whose condition is constant false")
		}
		if body := n.Child("body"); body != nil {
			w.expr(body, bs)
		}
		return
	case n.Kind == "call_expression":
		w.call(n, s)
		return
	case n.Kind == "macro_invocation":
		c := model.Call{Node: n, Tokens: w.f.Tokens(n), Liveness: s}
		if m := n.Child("macro"); m != nil {
			c.Callee = append(w.f.Tokens(m), "!")
		}
		for _, ch := range n.Children {
			if ch.Kind == "token_tree" {
				c.Inner = w.f.Tokens(ch)
			}
		}
		w.calls = append(w.calls, c)
		return
	case n.Kind == "closure_expression":
		w.closure(n, s, false)
		return
	}
	w.children(n, s)
}

// children walks the named children of n.
func (w *walker) children(n *syntax.Node, s core.Liveness) {
	for _, ch := range n.Children {
		if ch.Named && !syntax.IsComment(ch) {
			w.expr(ch, s)
		}
	}
}

// ifExpr walks an if expression, with constant conditions folded.
func (w *walker) ifExpr(n *syntax.Node, s core.Liveness) {
	cond := n.Child("condition")
	w.expr(cond, s)
	v := constBool(w.f, cond)
	cs, as := s, s
	switch v {
	case "false":
		cs = s.Because("in a branch under a constant false condition")
	case "true":
		as = s.Because("in the else of a constant true condition")
	}
	if cons := n.Child("consequence"); cons != nil {
		w.expr(cons, cs)
	}
	if alt := n.Child("alternative"); alt != nil {
		w.children(alt, as)
	}
}

// call records a call and walks its callee and arguments; a closure
// called in place runs.
func (w *walker) call(n *syntax.Node, s core.Liveness) {
	fn := n.Child("function")
	c := model.Call{Node: n, Tokens: w.f.Tokens(n), Liveness: s}
	if fn != nil {
		c.Callee = w.f.Tokens(fn)
	}
	w.calls = append(w.calls, c)
	for _, ch := range n.Children {
		if !ch.Named || syntax.IsComment(ch) {
			continue
		}
		if ch == fn {
			// (|| work())() runs the closure in place.
			inner := fn
			for inner.Kind == "parenthesized_expression" && len(inner.NamedChildren()) == 1 {
				inner = inner.NamedChildren()[0]
			}
			if inner.Kind == "closure_expression" {
				w.closure(inner, s, true)
				continue
			}
		}
		w.expr(ch, s)
	}
}

// closure walks a closure's body: live when called in place or bound by
// `let f = || ...;` to a name the body calls, otherwise code that might
// run later (stored, returned, passed on).
func (w *walker) closure(n *syntax.Node, s core.Liveness, calledInPlace bool) {
	ls := s
	if !calledInPlace && !w.boundAndCalled(n) && !w.runBy(n) && s.Dead == "" {
		ls = core.Liveness{Dead: "in a closure that is never called here", Maybe: true}
	}
	if body := n.Child("body"); body != nil {
		w.expr(body, ls)
	}
}

// boundAndCalled reports whether a closure initialises a `let` whose name
// the body calls.
func (w *walker) boundAndCalled(n *syntax.Node) bool {
	p := n.Parent
	if p == nil || p.Kind != "let_declaration" || n.Field != "value" {
		return false
	}
	pat := p.Child("pattern")
	return pat != nil && pat.Kind == "identifier" && w.called[w.f.Text(pat)]
}

// divergingMacros never return.
var divergingMacros = map[string]bool{"panic": true, "unreachable": true, "todo": true, "unimplemented": true}

// divergingCalls never return.
var divergingCalls = map[string]bool{"std::process::exit": true, "process::exit": true, "std::process::abort": true, "process::abort": true}

// diverges reports whether a statement never falls through: return,
// break, continue, panic!, unreachable!, process::exit.
func diverges(f *syntax.File, n *syntax.Node) bool {
	e := n
	if n.Kind == "expression_statement" {
		kids := n.NamedChildren()
		if len(kids) != 1 {
			return false
		}
		e = kids[0]
	}
	switch e.Kind {
	case "return_expression", "break_expression", "continue_expression":
		return true
	case "macro_invocation":
		if m := e.Child("macro"); m != nil {
			toks := f.Tokens(m)
			return divergingMacros[toks[len(toks)-1]]
		}
	case "call_expression":
		// The longest name in divergingCalls is five tokens; a longer
		// callee is not joined only to be looked up.
		if toks := f.Tokens(e.Child("function")); len(toks) <= 5 {
			return divergingCalls[strings.Join(toks, "")]
		}
	}
	return false
}

// divergeName names a diverging statement for messages.
func divergeName(f *syntax.File, n *syntax.Node) string {
	e := n
	if kids := n.NamedChildren(); n.Kind == "expression_statement" && len(kids) == 1 {
		e = kids[0]
	}
	switch e.Kind {
	case "return_expression":
		return "return"
	case "break_expression":
		return "break"
	case "continue_expression":
		return "continue"
	case "macro_invocation":
		return strings.Join(f.Tokens(e.Child("macro")), "") + "!"
	}
	if fn := e.Child("function"); fn != nil {
		return "call of " + strings.Join(f.Tokens(fn), "")
	}
	return e.Kind
}

// constBool folds a condition made of literals: "true", "false" or "".
func constBool(f *syntax.File, n *syntax.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case "boolean_literal":
		return f.Text(n)
	case "parenthesized_expression":
		if kids := n.NamedChildren(); len(kids) == 1 {
			return constBool(f, kids[0])
		}
	case "unary_expression":
		if toks := f.Tokens(n); len(toks) > 0 && toks[0] == "!" {
			if kids := n.NamedChildren(); len(kids) == 1 {
				switch constBool(f, kids[0]) {
				case "true":
					return "false"
				case "false":
					return "true"
				}
			}
		}
	case "binary_expression":
		l, r := constBool(f, n.Child("left")), constBool(f, n.Child("right"))
		switch f.Text(n.Child("operator")) {
		case "&&":
			if l == "false" || r == "false" {
				return "false"
			}
			if l == "true" && r == "true" {
				return "true"
			}
		case "||":
			if l == "true" || r == "true" {
				return "true"
			}
			if l == "false" && r == "false" {
				return "false"
			}
		}
	}
	return ""
}
