package rustlang

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// unwrappers may stand between the lock call and the binding; each still
// yields the guard.
var unwrappers = map[string]bool{"unwrap": true, "expect": true, "unwrap_or_else": true}

// hold classifies the live statements of the body's outermost block and
// collects every other guard and every explicit drop.
func hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold {
	h := &model.Hold{}
	w := newWalker(f, fn.Body, c)
	l := paramNames(f, fn, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) {
		top := n.Parent == fn.Body
		var g *model.Guard
		switch n.Kind {
		case "let_declaration":
			g = letGuard(f, n, c)
		case "expression_statement":
			if kids := n.NamedChildren(); len(kids) == 1 {
				if lv := valueLock(f, kids[0], c); lv != nil && lv.direct {
					g = lv.guard
					g.Node, g.Takes = n, true
					g.NotHeld = "the guard is a temporary, dropped at the end of its statement"
				}
			}
		}
		if g == nil {
			gs, outside := scopedGuards(f, n, c)
			for i, x := range gs {
				if i == 0 {
					g = x
					if w := outsideWork(f, outside[0], l); w != nil && top {
						g.NotHeld = scopedNotHeld(f, g, w)
					}
					if top {
						g.RegionWork = regionWork(f, g.Scope, l)
					}
					continue
				}
				x.NotHeld = fmt.Sprintf("it holds the lock only from line %d to line %d", f.Position(x.Scope.Start).Line, f.Position(x.Scope.End).Line)
				h.Add(n, s, false, x, false)
			}
		}
		h.Add(n, s, top, g, top && s.Live() && core.AnyWork(steps(f, n, l)))
		if top {
			l.declare(f, n)
		}
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
	h.Leaks = leaks(f, w.calls)
	h.All = append(h.All, temporaries(f, h, w.calls, c)...)
	aliases := localAliases(f, fn.Body)
	for _, g := range h.All {
		g.Lock = aliases.Expand(g.Node, g.Lock)
	}
	return h
}

// letGuard recognises a `let` that binds a guard: to a name (`let g =
// m.lock().unwrap();`, `let g = m.lock().await;`, `let g = match
// m.lock() { .. }`), by a refutable pattern with an else (`let Ok(g) =
// m.lock() else { return };`), by temporary lifetime extension (`let n =
// &*m.lock().unwrap();`), or as an acquire helper's result. A guard bound
// to `_` is dropped at once.
func letGuard(f *syntax.File, n *syntax.Node, c *model.Config) *model.Guard {
	v, pat := n.Child("value"), n.Child("pattern")
	letElse := n.Child("alternative") != nil
	var g *model.Guard
	extended := false
	if lv := valueLock(f, v, c); lv != nil && lv.direct && (!lv.try || lv.unwrapped || letElse) {
		g = lv.guard
	} else if g = matchGuard(f, v, c); g == nil {
		if g = extendedGuard(f, v, c); g != nil {
			extended = true
		} else if g = helperCall(f, v, c); g == nil {
			return nil
		}
	}
	g.Node, g.Takes = n, true
	switch {
	case letElse:
		// The else runs when the pattern fails, and must diverge; past
		// the let, the guard is bound.
		if !bindsSuccess(f, pat) {
			return nil
		}
		if g.Name = boundName(f, pat); g.Name == "" {
			// `let Ok(_) = m.lock() else { .. };` binds nothing: the
			// guard is dropped at the end of the let.
			g.NotHeld = "its pattern binds nothing, so the guard is dropped at the end of the let"
			break
		}
		g.Scope = n.Parent
	case pat == nil || (pat.Kind != "identifier" && pat.Kind != "mut_pattern"):
		// `let _ = m.lock()` binds nothing: the guard is dropped at once.
		g.NotHeld = "`let _ =` drops the guard at once"
	case extended:
		// The name binds a reference: dropping it releases nothing.
		g.Scope = n.Parent
	default:
		g.Name, g.Scope = boundName(f, pat), n.Parent
	}
	return g
}

// temporaries are the guards that live calls of lock methods return
// inside a larger expression, `self.queue.lock().unwrap().push(x)`: each
// holds its lock until its statement ends.
func temporaries(f *syntax.File, h *model.Hold, calls []model.Call, conf *model.Config) []*model.Guard {
	var out []*model.Guard
	// A call inside a guard's expression is that guard's: one walk up
	// from the call, against the set of guard nodes, instead of a walk
	// up per guard (which cost calls × guards × depth on nested locks).
	guards := make(map[*syntax.Node]bool, len(h.All))
	for _, o := range h.All {
		guards[o.Node] = true
	}
	// Both questions are answered by the nearest ancestor that decides
	// them, remembered for every node on the way: a chain of lock calls
	// (`m.lock()?.lock()?...`) nests each call in the next, and a walk up
	// per call cost the square of its length.
	inGuard := ancestors{stop: func(n *syntax.Node) bool { return guards[n] }}
	stmtOf := ancestors{stop: func(n *syntax.Node) bool {
		return n.Parent == nil || n.Kind == "expression_statement" || n.Kind == "let_declaration" || n.Parent.Kind == "block"
	}}
	for _, c := range calls {
		if !c.Live() || c.Node.Kind != "call_expression" {
			continue
		}
		// The call itself must be the lock call (valueLock's guard at
		// c.Node): following the receivers down from every call of a
		// chain, as valueLock does, cost the square of its length.
		g := guardCall(f, c.Node, conf)
		if g == nil {
			continue // not a lock call, or an unwrap of one
		}
		if inGuard.of(c.Node) != nil {
			continue
		}
		stmt := stmtOf.of(c.Node)
		g.Takes, g.Scope, g.Liveness = true, stmt, c.Liveness
		g.NotHeld = "the guard is a temporary, dropped at the end of its statement"
		out = append(out, g)
	}
	return out
}

// helperCall recognises the call of an acquire helper whose result is
// the guard: `env_read_lock()`, `self.lock_state()?`.
func helperCall(f *syntax.File, e *syntax.Node, c *model.Config) *model.Guard {
	if len(c.Acquire) == 0 {
		return nil
	}
	for e != nil && (e.Kind == "try_expression" || e.Kind == "parenthesized_expression") && len(e.NamedChildren()) == 1 {
		e = e.NamedChildren()[0]
	}
	if e == nil || e.Kind != "call_expression" {
		return nil
	}
	callee := f.Tokens(e.Child("function"))
	for _, h := range c.Acquire {
		if model.CallsName(callee, h.Scoped) {
			return &model.Guard{Node: e, Acquire: h.Raw}
		}
	}
	return nil
}

// localAliases finds the `let` bindings of a body to a reference of an
// expression, `let m = &self.mu;`, bound once: a name bound twice is no
// alias.
func localAliases(f *syntax.File, body *syntax.Node) model.Aliases {
	out := model.Aliases{}
	bound := map[string]int{}
	syntax.Walk(body, func(n *syntax.Node) bool {
		if n.Kind != "let_declaration" {
			return true
		}
		pat, v := n.Child("pattern"), n.Child("value")
		if pat == nil || pat.Kind != "identifier" {
			return true
		}
		name := f.Text(pat)
		bound[name]++
		if v != nil && v.Kind == "reference_expression" {
			if target := v.Child("value"); target != nil {
				out[name] = model.Alias{At: n, Expr: f.Tokens(target)}
			}
		}
		return true
	})
	for name := range out {
		if bound[name] != 1 {
			delete(out, name)
		}
	}
	return out
}

// ancestors finds, for nodes of one tree, the nearest ancestor (the node
// itself included) where stop holds, or nil, remembering the answer for
// every node it passes: many nodes on one path cost the path once.
type ancestors struct {
	stop func(*syntax.Node) bool
	memo map[*syntax.Node]*syntax.Node
}

// of returns the nearest ancestor of n, n included, where stop holds.
func (a *ancestors) of(n *syntax.Node) *syntax.Node {
	if a.memo == nil {
		a.memo = map[*syntax.Node]*syntax.Node{}
	}
	var path []*syntax.Node
	var found *syntax.Node
	for m := n; m != nil; m = m.Parent {
		if f, ok := a.memo[m]; ok {
			found = f
			break
		}
		if a.stop(m) {
			found = m
			break
		}
		path = append(path, m)
	}
	for _, m := range path {
		a.memo[m] = found
	}
	return found
}
