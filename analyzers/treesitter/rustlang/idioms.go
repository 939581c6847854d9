package rustlang

import (
	"fmt"
	"unicode"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// How Rust code keeps a guard besides `let g = m.lock().unwrap();`:
//
//   - a refutable pattern binds it: `if let Ok(g) = m.lock() { .. }`,
//     `while let Some(g) = m.try_lock() { .. }`, `let Ok(g) = m.lock()
//     else { return };`, `match m.lock() { Ok(g) => .., Err(e) => .. }`;
//   - a temporary of the scrutinee of an `if let`, `while let` or
//     `match` lives until the expression ends (the consequence, the loop
//     body, every arm): `while let Some(job) = q.lock().unwrap().pop()`
//     runs each job with the queue locked;
//   - temporary lifetime extension: `let n = &*m.lock().unwrap();` and
//     `let v = &mut m.lock().unwrap().field;` keep the guard to the end
//     of the block, as a `let` of the guard itself would.
//
// Edition 2024 drops an `if let` scrutinee's temporaries before the
// else, edition 2021 after it: a guard is taken to hold in the
// consequence only, which is true in both.

// lockValue is what an expression's value owes to a lock call.
type lockValue struct {
	// guard is the lock call's guard, with the lock's tokens and mode;
	// its Node is the lock call.
	guard *model.Guard
	// direct says that the value is the lock call's result itself, with
	// only unwraps, `?`, `.await` and parentheses in between; otherwise
	// the guard is a temporary the value is computed from.
	direct bool
	// unwrapped says that an unwrap, expect or `?` takes the guard out
	// of the Result or Option around it.
	unwrapped bool
	// try says that the call is a try_ method, whose guard exists only
	// when the lock was free.
	try bool
}

// valueLock finds the lock call a value is computed from by following
// receivers: `m.lock()`, `m.lock().await`, `m.lock().unwrap().pop()`,
// `m.try_read()?.get(k)`. It returns nil when the value owes nothing to
// a lock call, or when the guard is passed to another function, which is
// the statement's temporary (temporaries).
func valueLock(f *syntax.File, e *syntax.Node, conf *model.Config) *lockValue {
	v := &lockValue{direct: true}
	for e != nil {
		switch e.Kind {
		case "try_expression", "parenthesized_expression", "await_expression":
			kids := e.NamedChildren()
			if len(kids) != 1 {
				return nil
			}
			v.unwrapped = v.unwrapped || e.Kind == "try_expression"
			e = kids[0]
			continue
		case "call_expression":
			fn := e.Child("function")
			if fn == nil || fn.Kind != "field_expression" {
				return nil
			}
			method := f.Text(fn.Child("field"))
			if g := guardCall(f, e, conf); g != nil {
				_, v.try = model.TryGuardMethods[method]
				v.guard = g
				return v
			}
			if unwrappers[method] {
				v.unwrapped = true
			} else {
				v.direct = false
			}
			e = fn.Child("value")
			continue
		case "field_expression", "index_expression":
			v.direct = false
			e = e.NamedChildren()[0]
			continue
		}
		return nil
	}
	return nil
}

// guardCall recognises call e as the call of a guard method on a lock
// (`m.lock()`, `m.try_read()`), without arguments: its guard, whose Node
// is e, or nil.
func guardCall(f *syntax.File, e *syntax.Node, conf *model.Config) *model.Guard {
	fn := e.Child("function")
	if fn == nil || fn.Kind != "field_expression" {
		return nil
	}
	if mode, ok := conf.RustGuardMethod(f.Text(fn.Child("field"))); ok && len(e.Child("arguments").NamedChildren()) == 0 {
		return &model.Guard{Node: e, Lock: [][]string{f.Tokens(fn.Child("value"))}, Mode: mode}
	}
	return nil
}

// extendedGuard recognises a `let` whose value borrows from a guard
// temporary through `&`, `*`, fields and parentheses only:
// `&*m.lock().unwrap()`, `&mut m.lock().unwrap().field`. Rust extends
// such a temporary to the end of the block, so the guard holds there
// like a named one. A method call on the guard (`&m.lock().unwrap().get()`)
// extends nothing: its guard is dropped at the end of the statement.
func extendedGuard(f *syntax.File, v *syntax.Node, conf *model.Config) *model.Guard {
	if v == nil || v.Kind != "reference_expression" {
		return nil
	}
	e := v.Child("value")
	for e != nil {
		switch e.Kind {
		case "unary_expression":
			if toks := f.Tokens(e); len(toks) == 0 || toks[0] != "*" {
				return nil
			}
			e = e.NamedChildren()[0]
		case "field_expression":
			e = e.Child("value")
		case "parenthesized_expression":
			e = e.NamedChildren()[0]
		default:
			lv := valueLock(f, e, conf)
			if lv == nil || !lv.direct || (lv.try && !lv.unwrapped) {
				return nil
			}
			return lv.guard
		}
	}
	return nil
}

// matchGuard recognises `let g = match m.lock() { Ok(g) => g, Err(e) =>
// e.into_inner() };`: the let binds the guard as `.unwrap()` would.
func matchGuard(f *syntax.File, v *syntax.Node, conf *model.Config) *model.Guard {
	if v == nil || v.Kind != "match_expression" {
		return nil
	}
	lv := valueLock(f, v.Child("value"), conf)
	if lv == nil || !lv.direct {
		return nil
	}
	return lv.guard
}

// scopedGuards finds the guards a statement binds for part of itself:
// by the pattern of an `if let` or `while let`, in the arms of a
// `match`, or as a temporary of their scrutinee. It does not enter
// blocks and closures, whose statements are visited on their own.
// For each guard, outside lists the parts of the statement that run
// without it (an else, a match arm that does not get the guard).
func scopedGuards(f *syntax.File, n *syntax.Node, conf *model.Config) (guards []*model.Guard, outside [][]*syntax.Node) {
	add := func(g *model.Guard, scope *syntax.Node, name string, out []*syntax.Node) {
		g.Takes, g.Statement, g.Scope, g.Name = true, true, scope, name
		guards, outside = append(guards, g), append(outside, out)
	}
	syntax.Walk(n, func(c *syntax.Node) bool {
		if c != n && (c.Kind == "block" || c.Kind == "closure_expression" || isItem(c)) {
			return false
		}
		switch c.Kind {
		case "let_condition":
			owner := c.Parent
			for owner != nil && owner.Kind == "let_chain" {
				owner = owner.Parent
			}
			if owner == nil {
				return true
			}
			scope := owner.Child("consequence")
			if owner.Kind == "while_expression" {
				scope = owner.Child("body")
			}
			lv := valueLock(f, c.Child("value"), conf)
			if lv == nil || scope == nil {
				return true
			}
			pat := c.Child("pattern")
			if lv.direct && !lv.unwrapped && !bindsSuccess(f, pat) {
				return true // `if let Err(e) = m.lock()`: no guard in the branch
			}
			name := ""
			if lv.direct {
				name = boundName(f, pat)
			}
			var out []*syntax.Node
			if alt := owner.Child("alternative"); alt != nil {
				out = alt.NamedChildren()
			}
			add(lv.guard, scope, name, out)
		case "match_expression":
			body := c.Child("body")
			lv := valueLock(f, c.Child("value"), conf)
			if lv == nil || body == nil {
				return true
			}
			if !lv.direct || !lv.try || lv.unwrapped {
				// A lock's Err holds the guard too (a poisoned mutex
				// stays locked), and a temporary lives through the
				// whole match: every arm runs with the lock held.
				name := ""
				if lv.direct && !lv.unwrapped {
					name = armsName(f, body)
				}
				add(lv.guard, body, name, nil)
				return true
			}
			// A try_lock's arms: only those that bind the success hold it.
			var holding, rest []*syntax.Node
			for _, arm := range body.NamedChildren() {
				if arm.Kind != "match_arm" {
					continue
				}
				if bindsSuccess(f, arm.Child("pattern")) {
					holding = append(holding, arm)
				} else if v := arm.Child("value"); v != nil {
					rest = append(rest, v)
				}
			}
			for _, arm := range holding {
				g := *lv.guard
				add(&g, arm, boundName(f, arm.Child("pattern")), rest)
			}
		}
		return true
	})
	return guards, outside
}

// bindsSuccess reports whether a pattern matches the guard of a lock
// call's result: `Ok(..)`, `Some(..)`, or a plain binding.
func bindsSuccess(f *syntax.File, pat *syntax.Node) bool {
	if pat == nil {
		return false
	}
	if pat.Kind == "match_pattern" {
		if kids := pat.NamedChildren(); len(kids) > 0 {
			pat = kids[0]
		}
	}
	switch pat.Kind {
	case "tuple_struct_pattern":
		t := f.Text(pat.Child("type"))
		return t == "Ok" || t == "Some"
	case "identifier":
		return BindsName(f.Text(pat))
	case "mut_pattern":
		return true
	}
	return false
}

// BindsName reports whether an identifier in a pattern binds a name. The
// grammar reads `None` and a constant (`MAX`) as identifiers, but Rust
// resolves them to the variant or constant and binds nothing; without
// name resolution, the naming convention tells them apart: a binding is
// snake_case, a unit variant or constant starts with a capital (the
// compiler warns otherwise).
func BindsName(name string) bool {
	return name != "" && !unicode.IsUpper([]rune(name)[0])
}

// boundName is the name a pattern binds the guard to, `g` in `Ok(g)`,
// `Ok(mut g)` or `Some(g)`; "" when it binds none.
func boundName(f *syntax.File, pat *syntax.Node) string {
	if pat == nil {
		return ""
	}
	if pat.Kind == "match_pattern" {
		if kids := pat.NamedChildren(); len(kids) > 0 {
			pat = kids[0]
		}
	}
	switch pat.Kind {
	case "identifier":
		if !BindsName(f.Text(pat)) {
			return ""
		}
		return f.Text(pat)
	case "mut_pattern":
		if kids := pat.NamedChildren(); len(kids) > 0 {
			return boundName(f, kids[len(kids)-1])
		}
	case "tuple_struct_pattern":
		var name string
		for _, k := range pat.NamedChildren() {
			if k.Field == "type" {
				continue
			}
			if name != "" {
				return ""
			}
			name = boundName(f, k)
		}
		return name
	}
	return ""
}

// armsName is the one name the success arms of a match bind the guard
// to, "" when they bind none or several.
func armsName(f *syntax.File, body *syntax.Node) string {
	name := ""
	for _, arm := range body.NamedChildren() {
		if arm.Kind != "match_arm" || !bindsSuccess(f, arm.Child("pattern")) {
			continue
		}
		n := boundName(f, arm.Child("pattern"))
		if name != "" && n != name {
			return ""
		}
		name = n
	}
	return name
}

// outsideWork returns the first part of a statement that runs without
// its guard and does work, or nil. A part is an else block or a match
// arm's value, whose value (a block's tail) is the statement's value and
// counts as a returned one: `else { None }` builds a constant.
func outsideWork(f *syntax.File, parts []*syntax.Node, l locals) *syntax.Node {
	for _, p := range parts {
		if core.AnyWork(valueSteps(f, p, l)) {
			return p
		}
	}
	return nil
}

// regionWork lists the parts of a guard's region that do work, in
// order (model.Guard.RegionWork): the statements of an `if let`'s or
// `while let`'s block, its tail as a value, the values of a match's arms.
func regionWork(f *syntax.File, scope *syntax.Node, l locals) []*syntax.Node {
	var parts []*syntax.Node
	switch scope.Kind {
	case "block":
		kids := scope.NamedChildren()
		for i, c := range kids {
			if i < len(kids)-1 && core.AnyWork(addSteps(nil, f, c, l)) {
				parts = append(parts, c)
			}
		}
		if len(kids) > 0 && core.AnyWork(valueSteps(f, kids[len(kids)-1], l)) {
			parts = append(parts, kids[len(kids)-1])
		}
		return parts
	case "match_block":
		for _, arm := range scope.NamedChildren() {
			if arm.Kind == "match_arm" {
				parts = append(parts, regionWork(f, arm, l)...)
			}
		}
	case "match_arm":
		// An arm's value, or the statements of its block.
		v := scope.Child("value")
		switch {
		case v == nil:
		case v.Kind == "block":
			parts = regionWork(f, v, l)
		case core.AnyWork(valueSteps(f, v, l)):
			parts = append(parts, v)
		}
	}
	return parts
}

// valueSteps describes an expression whose value leaves the statement,
// for core.DoesWork: a block's statements and its tail, or the
// expression itself.
func valueSteps(f *syntax.File, e *syntax.Node, l locals) []core.Step {
	return addValueSteps(nil, f, e, l)
}

// addValueSteps appends the steps of valueSteps to out, as addSteps does:
// a block nested in a block's tail costs its own size, not its size at
// every level above it.
func addValueSteps(out []core.Step, f *syntax.File, e *syntax.Node, l locals) []core.Step {
	switch e.Kind {
	case "block":
		kids := e.NamedChildren()
		for i, c := range kids {
			if i == len(kids)-1 {
				out = addValueSteps(out, f, c, l)
			} else {
				out = addSteps(out, f, c, l)
			}
		}
		return out
	case "expression_statement", "let_declaration", "empty_statement", "return_expression", "macro_invocation",
		"if_expression", "break_expression", "continue_expression", "attribute_item", "line_comment", "block_comment":
		return addSteps(out, f, e, l)
	}
	if isItem(e) {
		return addSteps(out, f, e, l)
	}
	return append(out, core.Step{Kind: core.Return, Values: []core.Value{returned(f, e, l)}})
}

// scopedNotHeld says why a statement's guard does not hold its lock for
// the work of the statement.
func scopedNotHeld(f *syntax.File, g *model.Guard, work *syntax.Node) string {
	return fmt.Sprintf("it holds the lock only from line %d to line %d, and the code at line %d does work without it",
		f.Position(g.Scope.Start).Line, f.Position(g.Scope.End).Line, f.Position(work.Start).Line)
}
