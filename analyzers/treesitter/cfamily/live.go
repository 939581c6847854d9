package cfamily

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// walker visits a function body in execution order and records every call
// with its liveness.
type walker struct {
	f     *syntax.File
	c     *model.Config
	calls []model.Call
	// called holds the local names called as name(...) in the body, so
	// that a lambda bound to one of them counts as run.
	called map[string]bool
	// onStmt, when set, sees every statement with its state.
	onStmt func(n *syntax.Node, s core.Liveness)
	// inLambda counts the lambdas around the code being walked, so that
	// a return there is known to be the lambda's without a climb to the
	// body for each one.
	inLambda int
}

// newWalker prepares a walker for a body, with the local names it calls.
// Declarations the grammar read as local function declarations are read
// as the initialisations they are first (constructorArgs).
func newWalker(f *syntax.File, body *syntax.Node, c *model.Config) *walker {
	constructorArgs(body)
	w := &walker{f: f, c: c, called: f.CalledNames(body)}
	model.RunNames(f, body, w.called, runners, c.Runners)
	return w
}

// runners are the standard functions that run the callable they are
// passed before they return: std::call_once (the first time, which is
// when the code it guards is written to run), std::invoke, std::apply
// and std::visit.
var runners = []invariants.Name{
	model.Runner("std::call_once"), model.Runner("std::invoke"), model.Runner("std::apply"), model.Runner("std::visit"),
}

// runBy reports whether a lambda is passed to a runner, built in or
// declared by the invariant (`runs:`).
func (w *walker) runBy(n *syntax.Node) bool {
	return model.RunnerCall(w.f, model.RunArgument(n), runners, w.c.Runners)
}

// stmts walks a statement list and reports whether it always ends in a
// terminating statement. Statements after one are dead, up to a label.
func (w *walker) stmts(items []*syntax.Node, s core.Liveness) bool {
	var term *syntax.Node
	for _, n := range items {
		if syntax.IsComment(n) || !n.Named {
			continue
		}
		cur := s
		switch {
		case n.Kind == "labeled_statement" || n.Kind == "case_statement":
			term = nil
		case term != nil:
			cur = s.Because(fmt.Sprintf("after the %s at line %d, which never falls through", terminatorName(w.f, term), w.f.Position(term.Start).Line))
		}
		if w.stmt(n, cur) && term == nil {
			term = n
		}
	}
	return term != nil
}

// stmt walks one statement and reports whether it never falls through.
func (w *walker) stmt(n *syntax.Node, s core.Liveness) bool {
	if w.onStmt != nil {
		w.onStmt(n, s)
	}
	switch n.Kind {
	case "compound_statement":
		return w.stmts(n.Children, s)
	case "if_statement":
		return w.ifStmt(n, s)
	case "while_statement", "for_statement":
		cond := n.Child("condition")
		if cond != nil {
			w.expr(cond, s)
		}
		for _, ch := range n.Children {
			if ch.Field == "initializer" || ch.Field == "update" {
				w.expr(ch, s)
			}
		}
		bs := s
		if cond != nil && constBool(w.f, cond) == no {
			bs = s.Because("in a loop whose condition is constant false")
		}
		if body := n.Child("body"); body != nil {
			w.stmt(body, bs)
		}
		return false
	case "return_statement", "throw_statement", "break_statement", "continue_statement", "goto_statement":
		w.children(n, s)
		return true
	case "expression_statement":
		w.children(n, s)
		return terminates(w.f, n)
	case "labeled_statement", "case_statement":
		var body []*syntax.Node
		for _, ch := range n.Children {
			if ch.Field == "value" || ch.Field == "label" {
				w.expr(ch, s)
				continue
			}
			body = append(body, ch)
		}
		return w.stmts(body, s)
	case "preproc_if", "preproc_ifdef":
		for _, b := range branches(w.f, n, w.c) {
			bs := s
			if b.live == no {
				bs = s.Because("in `" + directiveText(w.f, b.directive) + "`, which is not compiled")
			}
			w.stmts(b.items, bs)
		}
		return false
	}
	// Declarations and the rest are expressions to the walker; expr also
	// skips nested definitions (a GNU C nested function is a statement).
	w.expr(n, s)
	return false
}

// ifStmt walks an if statement, with constant conditions folded, and
// reports whether neither arm falls through.
func (w *walker) ifStmt(n *syntax.Node, s core.Liveness) bool {
	cond := n.Child("condition")
	w.expr(cond, s)
	v := constBool(w.f, cond)
	cons, alt := n.Child("consequence"), n.Child("alternative")
	if alt != nil && alt.Kind == "else_clause" {
		if kids := alt.NamedChildren(); len(kids) > 0 {
			alt = kids[0]
		}
	}
	cs, as := s, s
	switch v {
	case no:
		cs = s.Because("in a branch under a constant false condition")
	case yes:
		as = s.Because("in the else of a constant true condition")
	}
	ct := cons != nil && w.stmt(cons, cs)
	at := alt != nil && w.stmt(alt, as)
	switch v {
	case no:
		return at
	case yes:
		return ct
	}
	return ct && at
}

// expr walks an expression (or any node) and records its calls.
func (w *walker) expr(n *syntax.Node, s core.Liveness) {
	switch n.Kind {
	case "call_expression":
		w.call(n, s)
		return
	case "lambda_expression":
		w.lambda(n, s, false)
		return
	case "function_definition", "class_specifier", "struct_specifier", "union_specifier":
		// A nested definition is another function; its code is not the
		// target's. A specifier without a body is only a type name.
		if n.Kind == "function_definition" || n.Child("body") != nil {
			return
		}
	default:
		if statementKinds[n.Kind] {
			w.stmt(n, s)
			return
		}
	}
	w.children(n, s)
}

// children walks the named children of n as expressions.
func (w *walker) children(n *syntax.Node, s core.Liveness) {
	for _, ch := range n.Children {
		if ch.Named && !syntax.IsComment(ch) {
			w.expr(ch, s)
		}
	}
}

// call records a call and walks its callee and arguments; a lambda called
// in place runs.
func (w *walker) call(n *syntax.Node, s core.Liveness) {
	fn := n.Child("function")
	c := model.Call{Node: n, Tokens: w.f.Tokens(n), Liveness: s}
	if fn != nil {
		c.Callee = w.f.Tokens(fn)
	}
	w.calls = append(w.calls, c)
	for _, ch := range n.Children {
		switch {
		case !ch.Named || syntax.IsComment(ch):
		case ch == fn && fn.Kind == "lambda_expression":
			w.lambda(fn, s, true)
		default:
			w.expr(ch, s)
		}
	}
}

// lambda walks a lambda's body: live when it is called in place or bound
// to a local that the body calls, otherwise code that might run later.
func (w *walker) lambda(n *syntax.Node, s core.Liveness, calledInPlace bool) {
	ls := s
	if !calledInPlace && !w.boundAndCalled(n) && !w.runBy(n) && s.Dead == "" {
		ls = core.Liveness{Dead: "in a lambda that is never called here", Maybe: true}
	}
	w.inLambda++
	for _, ch := range n.Children {
		if ch.Field == "body" {
			w.stmt(ch, ls)
		}
	}
	w.inLambda--
}

// boundAndCalled reports whether a lambda initialises a local
// (`auto f = [&]{...};`) whose name the body calls.
func (w *walker) boundAndCalled(n *syntax.Node) bool {
	p := n.Parent
	if p == nil || p.Kind != "init_declarator" || n.Field != "value" {
		return false
	}
	d := p.Child("declarator")
	return d != nil && d.Kind == "identifier" && w.called[w.f.Text(d)]
}

// statementKinds are the statements that stmt handles itself; expr hands
// them over when it meets them inside other nodes (a do or switch body).
var statementKinds = map[string]bool{
	"compound_statement": true, "if_statement": true, "while_statement": true, "for_statement": true,
	"return_statement": true, "throw_statement": true, "break_statement": true, "continue_statement": true,
	"goto_statement": true, "expression_statement": true, "labeled_statement": true, "case_statement": true,
	"preproc_if": true, "preproc_ifdef": true,
}

// noReturn are the functions after whose call nothing runs.
var noReturn = map[string]bool{
	"abort": true, "exit": true, "_Exit": true, "quick_exit": true, "std::abort": true, "std::exit": true,
	"std::quick_exit": true, "std::_Exit": true, "std::terminate": true, "__builtin_unreachable": true,
	"std::unreachable": true, "__builtin_trap": true,
}

// terminates reports whether an expression statement never falls
// through: a throw, or a call of a function that does not return.
func terminates(f *syntax.File, n *syntax.Node) bool {
	kids := n.NamedChildren()
	if len(kids) != 1 {
		return false
	}
	e := kids[0]
	switch e.Kind {
	case "throw_expression":
		return true
	case "call_expression":
		// The names looked up are at most a few scopes deep (`exit`,
		// `::std::__throw_length_error`, `boost::throw_exception`); a
		// longer callee (a long method chain) is not joined only to be
		// looked up.
		if toks := f.Tokens(e.Child("function")); len(toks) <= 7 {
			callee := strings.Join(toks, "")
			return noReturn[callee] || neverReturns(callee)
		}
	}
	return false
}

// terminatorName names a terminating statement for messages.
func terminatorName(f *syntax.File, n *syntax.Node) string {
	switch n.Kind {
	case "return_statement":
		return "return"
	case "throw_statement":
		return "throw"
	case "break_statement":
		return "break"
	case "continue_statement":
		return "continue"
	case "goto_statement":
		return "goto"
	case "expression_statement":
		if kids := n.NamedChildren(); len(kids) == 1 && kids[0].Kind == "throw_expression" {
			return "throw"
		}
		if kids := n.NamedChildren(); len(kids) == 1 {
			if fn := kids[0].Child("function"); fn != nil {
				return "call of " + strings.Join(f.Tokens(fn), "")
			}
		}
	}
	return n.Kind
}

// constBool folds an if or loop condition made of literals: `false`, `0`,
// `!true`, `(0)`, `false && x`, `if constexpr (false)`.
func constBool(f *syntax.File, n *syntax.Node) tri {
	if n == nil {
		return unknown
	}
	switch n.Kind {
	case "condition_clause":
		if v := n.Child("value"); v != nil && n.Child("initializer") == nil {
			return constBool(f, v)
		}
		return unknown
	case "parenthesized_expression":
		if kids := n.NamedChildren(); len(kids) == 1 {
			return constBool(f, kids[0])
		}
	case "true":
		return yes
	case "false", "null", "nullptr":
		return no
	case "number_literal":
		if v, ok := parseInt(f.Text(n)); ok {
			return boolTri(v != 0)
		}
	case "unary_expression":
		if f.Text(n.Child("operator")) == "!" {
			return not(constBool(f, n.Child("argument")))
		}
	case "binary_expression":
		l, r := constBool(f, n.Child("left")), constBool(f, n.Child("right"))
		switch f.Text(n.Child("operator")) {
		case "&&":
			return and(l, r)
		case "||":
			return or(l, r)
		}
	}
	return unknown
}
