package rustlang

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// lockMethods are the methods that return a guard, with the mode it holds:
// Mutex::lock, RwLock::write and RwLock::read (std and parking_lot).
var lockMethods = map[string]invariants.LockMode{
	"lock":  invariants.Exclusive,
	"write": invariants.Exclusive,
	"read":  invariants.Shared,
}

// unwrappers may stand between the lock call and the binding; each still
// yields the guard.
var unwrappers = map[string]bool{"unwrap": true, "expect": true, "unwrap_or_else": true}

// lockCall finds the lock call in an expression that yields a guard:
// `m.lock()`, `m.lock().unwrap()`, `m.write().expect("..")`, `m.read()?`.
// It returns the guard with the lock's tokens, or nil.
func lockCall(f *syntax.File, e *syntax.Node) *model.Guard {
	for e != nil {
		switch e.Kind {
		case "try_expression", "parenthesized_expression":
			kids := e.NamedChildren()
			if len(kids) != 1 {
				return nil
			}
			e = kids[0]
			continue
		case "call_expression":
			fn := e.Child("function")
			if fn == nil || fn.Kind != "field_expression" {
				return nil
			}
			method := f.Text(fn.Child("field"))
			recv := fn.Child("value")
			if mode, ok := lockMethods[method]; ok && len(e.Child("arguments").NamedChildren()) == 0 {
				return &model.Guard{Node: e, Lock: [][]string{f.Tokens(recv)}, Mode: mode}
			}
			if unwrappers[method] {
				e = recv
				continue
			}
		}
		return nil
	}
	return nil
}

// hold classifies the live statements of the body's outermost block and
// collects every other guard and every explicit drop.
func hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold {
	h := &model.Hold{}
	w := newWalker(f, fn.Body, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) {
		top := n.Parent == fn.Body
		var g *model.Guard
		switch n.Kind {
		case "let_declaration":
			if g = lockCall(f, n.Child("value")); g != nil {
				g.Node, g.Takes = n, true
				pat := n.Child("pattern")
				switch {
				case pat == nil || pat.Kind != "identifier":
					// `let _ = m.lock()` binds nothing: the guard is dropped
					// at once.
					g.NotHeld = "`let _ =` drops the guard at once"
				default:
					g.Name, g.Scope = f.Text(pat), n.Parent
				}
			}
		case "expression_statement":
			if kids := n.NamedChildren(); len(kids) == 1 {
				if g = lockCall(f, kids[0]); g != nil {
					g.Node, g.Takes = n, true
					g.NotHeld = "the guard is a temporary, dropped at the end of its statement"
				}
			}
		}
		h.Add(n, s, top, g, top && s.Live() && core.DoesWork(step(n)))
	}
	w.block(fn.Body, core.Liveness{})
	for _, call := range w.calls {
		if !call.Live() || call.Node.Kind != "call_expression" {
			continue
		}
		if len(call.Callee) > 5 {
			continue // longer than core::mem::drop
		}
		switch strings.Join(call.Callee, "") {
		case "drop", "std::mem::drop", "mem::drop", "core::mem::drop":
		default:
			continue
		}
		args := call.Node.Child("arguments").NamedChildren()
		if len(args) == 1 && args[0].Kind == "identifier" {
			h.Releases = append(h.Releases, model.Release{Node: call.Node, Guard: f.Text(args[0])})
		}
	}
	return h
}

// step describes a top-level statement for core.DoesWork: Rust's half of
// the one definition of work.
func step(n *syntax.Node) core.Step {
	switch {
	case n.Kind == "empty_statement":
		return core.Step{Kind: core.Empty}
	case isItem(n):
		return core.Step{Kind: core.Declaration}
	case n.Kind == "let_declaration":
		st := core.Step{Kind: core.Declaration}
		if v := n.Child("value"); v != nil {
			st.Values = []core.Value{letValue(v)}
		}
		return st
	}
	return core.Step{Kind: core.Other}
}

// letValue describes what computing a let's value involves.
func letValue(v *syntax.Node) core.Value {
	switch v.Kind {
	case "integer_literal", "float_literal", "string_literal", "boolean_literal", "char_literal", "raw_string_literal":
		return core.Constant
	}
	return core.Computed
}
