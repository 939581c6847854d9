package rustlang

import (
	"regexp"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Rust's half of the one definition of work (core.DoesWork): a statement
// is described as the steps the core judges. An if is its condition's
// step and its arms' steps, so that a guard clause, `if n == 0 { return
// Err(Error::Empty); }`, is judged by what it reads and returns; an
// assert! is the condition it checks; a panic! or a returned Err(..)
// leaves the function with what it builds.

// assertMacros check a condition and panic when it fails.
var assertMacros = map[string]bool{
	"assert": true, "assert_eq": true, "assert_ne": true,
	"debug_assert": true, "debug_assert_eq": true, "debug_assert_ne": true,
}

// locals are the names of a function's parameters and the locals it has
// bound so far.
//
// locks are the tokens of the rule's lock patterns: a local bound to the
// lock touches nothing it protects.
type locals struct {
	names map[string]bool
	locks [][]string
}

// paramNames returns the names a function's parameters bind.
func paramNames(f *syntax.File, fn *model.Func, c *model.Config) locals {
	out := locals{names: map[string]bool{"self": true}, locks: c.Locks}
	for _, p := range fn.Node.Child("parameters").NamedChildren() {
		if pat := p.Child("pattern"); pat != nil && pat.Kind == "identifier" {
			out.names[f.Text(pat)] = true
		}
	}
	return out
}

// declare adds the name a let binds.
func (l locals) declare(f *syntax.File, n *syntax.Node) {
	if n.Kind == "let_declaration" {
		if pat := n.Child("pattern"); pat != nil && pat.Kind == "identifier" {
			l.names[f.Text(pat)] = true
		}
	}
}

// steps describes a statement, or a block's tail expression, for
// core.DoesWork.
func steps(f *syntax.File, n *syntax.Node, l locals) []core.Step {
	return addSteps(nil, f, n, l)
}

// addSteps appends the steps of n to out. The steps of a nested
// statement are appended where they fall, never built apart and copied
// into their parent's: copying them at every level cost the square of
// the nesting (an `if` chain, docs/reliability.md).
func addSteps(out []core.Step, f *syntax.File, n *syntax.Node, l locals) []core.Step {
	switch {
	case n.Kind == "empty_statement":
		return append(out, core.Step{Kind: core.Empty})
	case isItem(n):
		return append(out, core.Step{Kind: core.Declaration})
	case n.Kind == "let_declaration":
		st := core.Step{Kind: core.Declaration}
		if v := n.Child("value"); v != nil {
			st.Values = []core.Value{letValue(f, v, l)}
		}
		if n.Child("alternative") != nil {
			return []core.Step{{Kind: core.Other}} // let-else
		}
		return append(out, st)
	case n.Kind == "expression_statement":
		kids := n.NamedChildren()
		if len(kids) != 1 {
			return append(out, core.Step{Kind: core.Other})
		}
		return addSteps(out, f, kids[0], l)
	case n.Kind == "block":
		before := len(out)
		for _, c := range n.NamedChildren() {
			if c.Kind != "attribute_item" {
				out = addSteps(out, f, c, l)
			}
		}
		if len(out) == before {
			return append(out, core.Step{Kind: core.Empty})
		}
		return out
	case n.Kind == "if_expression":
		cond := n.Child("condition")
		if cond == nil {
			return append(out, core.Step{Kind: core.Other})
		}
		if cond.Kind == "let_condition" {
			cond = cond.Child("value")
		}
		out = append(out, core.Step{Kind: core.Condition, Values: []core.Value{valueOf(f, cond, l)}})
		if c := n.Child("consequence"); c != nil {
			out = addSteps(out, f, c, l)
		}
		if alt := n.Child("alternative"); alt != nil {
			for _, c := range alt.NamedChildren() {
				out = addSteps(out, f, c, l)
			}
		}
		return out
	case n.Kind == "return_expression":
		st := core.Step{Kind: core.Return}
		for _, c := range n.NamedChildren() {
			st.Values = append(st.Values, returned(f, c, l))
		}
		return append(out, st)
	case n.Kind == "call_expression":
		// A call made for its effect, or the body's value: judged by the
		// value it computes (a standard constructor of locals is none).
		kind := core.Drop
		if n.Parent != nil && n.Parent.Kind == "block" {
			kind = core.Return
		}
		return append(out, core.Step{Kind: kind, Values: []core.Value{valueOf(f, n, l)}})
	case n.Parent != nil && n.Parent.Kind == "block" && tailValues[n.Kind]:
		// The body's value, returned: judged by what it reads (`s` after
		// `let s = format!(..)`).
		return append(out, core.Step{Kind: core.Return, Values: []core.Value{valueOf(f, n, l)}})
	case n.Kind == "macro_invocation":
		name := macroName(f, n)
		var kind core.StepKind
		switch {
		case assertMacros[name]:
			kind = core.Condition
		case divergingMacros[name]:
			kind = core.Return
		case valueMacros[name]:
			// A value built for its caller (the body's value) or thrown
			// away: judged by its arguments, as a call is.
			kind = core.Drop
			if n.Parent != nil && n.Parent.Kind == "block" {
				kind = core.Return
			}
			return append(out, core.Step{Kind: kind, Values: []core.Value{macroValue(f, n, l)}})
		default:
			return append(out, core.Step{Kind: core.Other})
		}
		st := core.Step{Kind: kind, Values: []core.Value{core.Constant}}
		for _, c := range n.Children {
			if c.Kind == "token_tree" {
				st.Values = append(st.Values, treeValue(f, c, l))
			}
		}
		return append(out, st)
	}
	return append(out, core.Step{Kind: core.Other})
}

// letValue describes a let's value: a reference to the rule's lock binds
// an alias and touches nothing (`let m = &self.mu;`).
func letValue(f *syntax.File, v *syntax.Node, l locals) core.Value {
	if v.Kind == "reference_expression" {
		if target := v.Child("value"); target != nil {
			toks := f.Tokens(target)
			for _, lock := range l.locks {
				if model.MatchLock(toks, lock) {
					return core.LockAddress
				}
			}
		}
	}
	return valueOf(f, v, l)
}

// macroName is the last segment of a macro invocation's path.
func macroName(f *syntax.File, n *syntax.Node) string {
	toks := f.Tokens(n.Child("macro"))
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}

// returned describes a returned value: an `Err(..)` builds the error, so
// a call in it counts by its arguments, as for a panic's message.
func returned(f *syntax.File, n *syntax.Node, l locals) core.Value {
	if n.Kind == "call_expression" && f.Text(n.Child("function")) == "Err" {
		v := core.Constant
		for _, a := range n.Child("arguments").NamedChildren() {
			v = core.Worse(v, built(f, a, l))
		}
		return v
	}
	return valueOf(f, n, l)
}

// built describes a value that builds an error or a message: a call of a
// path (`Error::new(kind, "x")`) counts by its arguments; a method call
// reads its receiver.
func built(f *syntax.File, n *syntax.Node, l locals) core.Value {
	if n.Kind == "call_expression" {
		if fn := n.Child("function"); fn != nil && fn.Kind == "field_expression" {
			return core.Computed
		}
		v := core.Constant
		for _, a := range n.Child("arguments").NamedChildren() {
			v = core.Worse(v, built(f, a, l))
		}
		return v
	}
	return valueOf(f, n, l)
}

// treeValue describes the token tree of an assert! or a panic!, which the
// grammar does not parse: its literals are constants, its locals local;
// a name that is called (`x(` or `m!(`), a field (`.`) or any other name
// is work.
func treeValue(f *syntax.File, tt *syntax.Node, l locals) core.Value {
	v := core.Constant
	kids := tt.Children
	for i, c := range kids {
		next := ""
		if i+1 < len(kids) {
			next = f.Text(kids[i+1])
		}
		switch c.Kind {
		case "token_tree":
			v = core.Worse(v, treeValue(f, c, l))
		case "identifier":
			switch {
			case next == "(" || next == "!" || next == ".":
				return core.Computed
			case l.names[f.Text(c)]:
				v = core.Worse(v, core.Local)
			default:
				return core.Computed
			}
		case "self":
			if next == "." {
				return core.Computed
			}
		case ".", "::":
			return core.Computed
		}
	}
	return v
}

// constructors build values from their arguments: `Some(x)`, `Ok(x)`.
var constructors = map[string]bool{"Some": true, "Ok": true, "Err": true}

// valueOf describes what computing an expression involves: literals,
// enum variants (`Error::Empty`, `None`), the function's own locals and
// parameters (not what they point to), `len()` and `is_empty()` of a
// local, and operators over them do no work; a call, a field, a
// dereference or a name that is not local does (a SCREAMING_CASE name
// may be a static).
func valueOf(f *syntax.File, n *syntax.Node, l locals) core.Value {
	switch n.Kind {
	case "integer_literal", "float_literal", "string_literal", "raw_string_literal", "boolean_literal", "char_literal", "unit_expression":
		return core.Constant
	case "identifier":
		name := f.Text(n)
		switch {
		case l.names[name]:
			return core.Local
		case isVariantName(name):
			return core.Constant
		}
		return core.Computed
	case "self":
		return core.Local
	case "scoped_identifier":
		if name := n.Child("name"); name != nil && isVariantName(f.Text(name)) {
			return core.Constant
		}
		return core.Computed
	case "unary_expression":
		if toks := f.Tokens(n); len(toks) > 0 && toks[0] == "*" {
			return core.Computed
		}
	case "reference_expression", "parenthesized_expression", "binary_expression", "tuple_expression", "array_expression", "type_cast_expression":
	case "macro_invocation":
		return macroValue(f, n, l)
	case "call_expression":
		fn := n.Child("function")
		switch {
		case fn == nil:
			return core.Computed
		case fn.Kind == "identifier" && (constructors[f.Text(fn)] || isVariantName(f.Text(fn))):
		case fn.Kind == "scoped_identifier" && stdConstructors[f.Text(fn)]:
			return stdCall(f, n, l)
		case fn.Kind == "field_expression" && len(n.Child("arguments").NamedChildren()) == 0:
			recv, method := fn.Child("value"), f.Text(fn.Child("field"))
			if (method == "len" || method == "is_empty") && recv != nil && recv.Kind == "identifier" && l.names[f.Text(recv)] {
				return core.Local
			}
			return core.Computed
		default:
			return core.Computed
		}
		v := core.Constant
		for _, a := range n.Child("arguments").NamedChildren() {
			v = core.Worse(v, valueOf(f, a, l))
		}
		return v
	default:
		return core.Computed
	}
	v := core.Constant
	for _, c := range n.NamedChildren() {
		if c.Field == "type" {
			continue
		}
		v = core.Worse(v, valueOf(f, c, l))
	}
	return v
}

// isVariantName reports whether a name is spelt like an enum variant or a
// unit struct: a capital, then at least one lower-case letter.
func isVariantName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for _, r := range s[1:] {
		if r >= 'a' && r <= 'z' {
			return true
		}
	}
	return false
}

// tailValues are the kinds of a block's tail expression that are a value
// valueOf can judge, rather than code with effects of its own.
var tailValues = map[string]bool{
	"identifier": true, "self": true, "scoped_identifier": true,
	"integer_literal": true, "float_literal": true, "string_literal": true, "raw_string_literal": true,
	"boolean_literal": true, "char_literal": true, "unit_expression": true,
	"reference_expression": true, "parenthesized_expression": true, "binary_expression": true,
	"tuple_expression": true, "array_expression": true, "type_cast_expression": true, "unary_expression": true,
}

// valueMacros build a value from their arguments alone, as a standard
// constructor does: a formatted String (format!), the arguments of a
// formatting call (format_args!), a &'static str (concat!, stringify!), a
// Vec of the listed elements (vec!).
var valueMacros = map[string]bool{"format": true, "format_args": true, "concat": true, "stringify": true, "vec": true}

// inlineArgRE finds the names a format string captures (`{n}`,
// `{n:>8}`); `{{` is a literal brace and `{}`/`{0}` name no variable.
var inlineArgRE = regexp.MustCompile(`\{\{|\{([A-Za-z_][A-Za-z0-9_]*)[}:]`)

// macroValue describes a value macro's result: its token tree's worst
// value, and a name captured inline by a format string counts as that
// name does (a local, or anything else, which may be shared state). Any
// other macro is Computed: its expansion is unknown.
func macroValue(f *syntax.File, n *syntax.Node, l locals) core.Value {
	if !valueMacros[macroName(f, n)] {
		return core.Computed
	}
	v := core.Constant
	for _, c := range n.Children {
		if c.Kind != "token_tree" {
			continue
		}
		v = core.Worse(v, treeValue(f, c, l))
		for _, lit := range c.Children {
			if lit.Kind != "string_literal" {
				continue
			}
			for _, m := range inlineArgRE.FindAllStringSubmatch(f.Text(lit), -1) {
				if m[1] != "" && !l.names[m[1]] {
					return core.Computed
				}
			}
		}
	}
	return v
}
