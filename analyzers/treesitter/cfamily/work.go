package cfamily

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// The C family's half of the one definition of work (core.DoesWork): a
// statement is described as the steps the core judges. A compound
// statement is the steps of its statements; an if is the condition's
// step and its arms' steps, so that a guard clause, `if (!p) throw
// std::invalid_argument("p");`, is judged by what it reads and what it
// throws. An assert is the condition it checks. A throw is a return whose
// value constructs the exception, and so is a call of a function that
// never returns (`std::__throw_length_error("x")`, `abort()`).

// asserts are the macros and functions that check a condition and stop
// the program when it fails: each is a condition.
var asserts = map[string]bool{
	"assert": true, "__glibcxx_assert": true, "_GLIBCXX_DEBUG_ASSERT": true, "__glibcxx_requires_nonempty": true,
	"BOOST_ASSERT": true, "BOOST_ASSERT_MSG": true, "BOOST_VERIFY": true, "CUDA_KERNEL_ASSERT": true,
}

// locals are the names of a function's parameters and the locals it has
// declared so far: reading them touches nothing another thread shares.
//
// locks are the tokens of the rule's lock patterns: a local bound to the
// lock touches nothing it protects.
type locals struct {
	names map[string]bool
	locks [][]string
}

// paramNames returns the names of a function's parameters, with the
// rule's locks.
func paramNames(f *syntax.File, fn *model.Func, c *model.Config) locals {
	out := locals{names: map[string]bool{"this": true}, locks: c.Locks}
	d := fn.Node.Child("declarator")
	for d != nil && d.Kind != "function_declarator" {
		d = d.Child("declarator")
	}
	for _, p := range d.Child("parameters").NamedChildren() {
		if name := declaredName(p.Child("declarator")); name != nil && name.Kind == "identifier" {
			out.names[f.Text(name)] = true
		}
	}
	return out
}

// declare adds the names a declaration declares.
func (l locals) declare(f *syntax.File, n *syntax.Node) {
	if n.Kind != "declaration" {
		return
	}
	for _, d := range n.ChildrenOf("declarator") {
		if name := declaredName(d); name != nil && name.Kind == "identifier" {
			l.names[f.Text(name)] = true
		}
	}
}

// steps describes a statement for core.DoesWork.
func steps(f *syntax.File, n *syntax.Node, l locals) []core.Step {
	return addSteps(nil, f, n, l)
}

// addSteps appends the steps of n to out. The steps of a nested
// statement are appended where they fall, never built apart and copied
// into their parent's: copying them at every level cost the square of
// the nesting (an `if` chain, docs/reliability.md).
func addSteps(out []core.Step, f *syntax.File, n *syntax.Node, l locals) []core.Step {
	switch n.Kind {
	case "compound_statement":
		before := len(out)
		for _, c := range n.NamedChildren() {
			out = addSteps(out, f, c, l)
		}
		if len(out) == before {
			return append(out, core.Step{Kind: core.Empty})
		}
		return out
	case "empty_statement":
		return append(out, core.Step{Kind: core.Empty})
	case "expression_statement":
		kids := n.NamedChildren()
		if len(kids) == 0 {
			return append(out, core.Step{Kind: core.Empty})
		}
		return append(out, exprStep(f, kids[0], l))
	case "if_statement":
		cond := n.Child("condition")
		var value *syntax.Node
		if cond != nil {
			value = cond.Child("value")
			if cond.Kind == "parenthesized_expression" {
				value = cond // C's grammar: no condition clause
			}
		}
		if cond == nil || cond.Child("initializer") != nil || value == nil {
			return append(out, core.Step{Kind: core.Other})
		}
		out = append(out, core.Step{Kind: core.Condition, Values: []core.Value{valueOf(f, value, l)}})
		if c := n.Child("consequence"); c != nil {
			out = addSteps(out, f, c, l)
		}
		if alt := n.Child("alternative"); alt != nil {
			for _, c := range alt.NamedChildren() {
				out = addSteps(out, f, c, l)
			}
		}
		return out
	case "throw_statement":
		st := core.Step{Kind: core.Return}
		for _, c := range n.NamedChildren() {
			st.Values = append(st.Values, thrown(f, c, l))
		}
		return append(out, st)
	case "return_statement":
		st := core.Step{Kind: core.Return}
		for _, c := range n.NamedChildren() {
			st.Values = append(st.Values, valueOf(f, c, l))
		}
		return append(out, st)
	case "type_definition", "alias_declaration", "using_declaration", "static_assert_declaration", "namespace_alias_definition":
		return append(out, core.Step{Kind: core.Declaration})
	case "declaration":
		st := core.Step{Kind: core.Declaration}
		for _, d := range n.ChildrenOf("declarator") {
			if d.Kind != "init_declarator" {
				continue
			}
			if v := d.Child("value"); v != nil {
				st.Values = append(st.Values, initValue(f, v, l))
			}
		}
		return append(out, st)
	}
	return append(out, core.Step{Kind: core.Other})
}

// initValue describes a local's initialiser: the rule's lock, or its
// address, binds an alias and touches nothing (`auto& m =
// detail::eval_mutex();`, `auto* p = &mu_;`).
func initValue(f *syntax.File, v *syntax.Node, l locals) core.Value {
	e := v
	if e.Kind == "pointer_expression" && f.Text(e.Child("operator")) == "&" {
		e = e.Child("argument")
	}
	if e != nil {
		toks := f.Tokens(e)
		for _, lock := range l.locks {
			if model.MatchLock(toks, lock) {
				return core.LockAddress
			}
		}
	}
	return valueOf(f, v, l)
}

// exprStep describes an expression statement: an assert is the condition
// it checks, a throw or a call that never returns leaves the function
// with the values it passes, anything else does work.
func exprStep(f *syntax.File, e *syntax.Node, l locals) core.Step {
	switch e.Kind {
	case "throw_expression":
		st := core.Step{Kind: core.Return}
		for _, c := range e.NamedChildren() {
			st.Values = append(st.Values, thrown(f, c, l))
		}
		return st
	case "call_expression":
		callee := strings.Join(f.Tokens(e.Child("function")), "")
		var kind core.StepKind
		switch {
		case asserts[callee]:
			kind = core.Condition
		case noReturn[callee] || neverReturns(callee):
			kind = core.Return
		default:
			return core.Step{Kind: core.Other}
		}
		st := core.Step{Kind: kind}
		for _, a := range e.Child("arguments").NamedChildren() {
			st.Values = append(st.Values, thrown(f, a, l))
		}
		return st
	}
	return core.Step{Kind: core.Other}
}

// neverReturns recognises libstdc++'s [[noreturn]] helpers that throw
// (`std::__throw_length_error`) and Boost's throw_exception.
func neverReturns(callee string) bool {
	callee = strings.TrimPrefix(strings.TrimPrefix(callee, "::"), "std::")
	return strings.HasPrefix(callee, "__throw_") || strings.HasSuffix(callee, "throw_exception") || callee == "BOOST_THROW_EXCEPTION"
}

// thrown describes the value of a throw, or an argument of an assert or
// of a call that never returns: it builds the exception or the message,
// so a call in it counts by its arguments (`std::runtime_error("bad " +
// std::to_string(n))` reads n only). A member call reads its object.
func thrown(f *syntax.File, n *syntax.Node, l locals) core.Value {
	if n.Kind == "call_expression" {
		if fn := n.Child("function"); fn != nil && fn.Kind == "field_expression" {
			return core.Computed
		}
		v := core.Constant
		for _, a := range n.Child("arguments").NamedChildren() {
			v = core.Worse(v, thrown(f, a, l))
		}
		return v
	}
	switch n.Kind {
	case "binary_expression", "parenthesized_expression", "unary_expression", "conditional_expression",
		"cast_expression", "initializer_list", "argument_list":
		v := core.Constant
		for _, c := range n.NamedChildren() {
			if c.Field == "operator" {
				continue
			}
			v = core.Worse(v, thrown(f, c, l))
		}
		return v
	}
	return valueOf(f, n, l)
}

// valueOf describes what computing an expression involves: constants and
// literals, the function's own locals and parameters (not what they point
// to), and operators over them do no work; a call, a field, an element,
// a dereference or a name that is not local does. An identifier spelt in
// capitals (EINVAL, MAX_SIZE) is taken for a macro or enumerator constant,
// as the C family names them.
func valueOf(f *syntax.File, n *syntax.Node, l locals) core.Value {
	switch n.Kind {
	case "call_expression":
		return stdCall(f, n, l)
	case "number_literal", "string_literal", "char_literal", "raw_string_literal", "concatenated_string",
		"true", "false", "null", "nullptr", "sizeof_expression", "alignof_expression":
		return core.Constant
	case "identifier":
		name := f.Text(n)
		switch {
		case l.names[name]:
			return core.Local
		case isConstantName(name):
			return core.Constant
		}
		return core.Computed
	case "this":
		return core.Local
	case "parenthesized_expression", "unary_expression", "binary_expression", "conditional_expression", "cast_expression", "comma_expression":
		if n.Kind == "unary_expression" && f.Text(n.Child("operator")) == "*" {
			return core.Computed
		}
		v := core.Constant
		for _, c := range n.NamedChildren() {
			if c.Field == "type" || c.Field == "operator" {
				continue
			}
			v = core.Worse(v, valueOf(f, c, l))
		}
		return v
	}
	return core.Computed
}

// isConstantName reports whether a name is spelt like a C macro or
// enumerator constant: capitals, digits and underscores, with a letter.
func isConstantName(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			letter = true
		case r == '_' || r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return letter && len(s) > 1
}
