package treesitter

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// check checks one definition of a target. A definition with a syntax
// error inside cannot be verified: tree-sitter recovers around errors, and
// the recovered tree may hide or invent the very call the rule looks for.
func (t *target) check(f *syntax.File, fn *model.Func) match {
	m := match{pos: f.Position(fn.Name.Start)}
	if bad := syntax.FirstBad(fn.Node); bad != nil {
		what := "a syntax error"
		if bad.Kind != "ERROR" {
			what = "a missing " + bad.Kind
		}
		p := f.Position(bad.Start)
		m.bad = fmt.Sprintf("%s does not parse: %s at %s:%d:%d", t.name.Raw, what, p.Filename, p.Line, p.Column)
		return m
	}
	// The walkers below recurse over the body; see syntax.MaxDepth.
	if err := f.TooDeep(fn.Node, t.name.Raw); err != nil {
		m.bad = err.Error()
		return m
	}
	switch t.inv.Kind {
	case invariants.KindCall:
		m.findings = t.checkCall(f, fn)
	case invariants.KindForbid:
		m.findings = t.checkForbid(f, fn)
	case invariants.KindHold:
		m.findings = t.checkHold(f, fn)
	case invariants.KindOrder:
		m.findings = t.checkOrder(f, fn)
	}
	return m
}

// qualified names a function for messages.
func qualified(fn *model.Func) string { return strings.Join(fn.Path, "::") }

// checkCall: the body contains a live call matching the pattern. A dead
// copy is reported at the copy, with the reason it does not count.
func (t *target) checkCall(f *syntax.File, fn *model.Func) []Finding {
	want := t.inv.Call.To.Raw
	var dead *model.Call
	var live []*syntax.Node
	for _, c := range t.lang.Calls(f, fn, t.conf) {
		if !model.MatchCall(&c, t.pattern) && !t.viaCall(&c) {
			continue
		}
		if c.Live() {
			live = append(live, c.Node)
			continue
		}
		if dead == nil {
			c := c
			dead = &c
		}
	}
	if len(live) > 0 {
		if t.everyPath {
			return t.checkEveryPath(f, fn, live)
		}
		return nil
	}
	if dead != nil {
		return []Finding{report(t.inv, f, dead.Node, "%s must call %s; this call does not count: it is %s", qualified(fn), want, dead.Dead)}
	}
	return []Finding{report(t.inv, f, fn.Name, "%s must call %s, and contains no live call of it", qualified(fn), want)}
}

// viaCall reports whether a call is a call of one of the rule's helpers,
// by the helper's own name: `retain_all()`, `self.retain_all()`.
func (t *target) viaCall(c *model.Call) bool {
	for _, h := range t.via {
		if model.MatchTail(c.Callee, h) {
			return true
		}
	}
	return false
}

// checkEveryPath: every live return, and the end of the body when it is
// reached, comes after a call that runs on the way there; see dominated.
func (t *target) checkEveryPath(f *syntax.File, fn *model.Func, calls []*syntax.Node) []Finding {
	var out []Finding
	want := t.inv.Call.To.Raw
	exits, fallsThrough := t.lang.Exits(f, fn, t.conf)
	dom := newDominance(fn.Body, calls)
	for _, e := range exits {
		if !dom.dominated(e) {
			out = append(out, report(t.inv, f, e, "%s must call %s on every path, but this return is reached without the call", qualified(fn), want))
		}
	}
	if fallsThrough {
		// The end is reached after a call that runs whenever the body does.
		covered := dom.always
		if !covered {
			end := fn.Body.Children[len(fn.Body.Children)-1]
			out = append(out, report(t.inv, f, end, "%s must call %s on every path, but the end of its body is reached without the call", qualified(fn), want))
		}
	}
	return out
}

// checkForbid: no call matching the pattern runs or might run.
func (t *target) checkForbid(f *syntax.File, fn *model.Func) []Finding {
	var out []Finding
	for _, c := range t.lang.Calls(f, fn, t.conf) {
		if !model.MatchCall(&c, t.pattern) {
			continue
		}
		switch {
		case c.Live():
			out = append(out, report(t.inv, f, c.Node, "%s must not call %s", qualified(fn), t.inv.Forbid.Call.Raw))
		case c.MayRun:
			out = append(out, report(t.inv, f, c.Node, "%s must not call %s, and this call might run: it is %s", qualified(fn), t.inv.Forbid.Call.Raw, c.Dead))
		}
	}
	return out
}

// checkHold: a guard of the lock, in the rule's mode, is declared in the
// outermost block before the first statement that does work, and is not
// released while work remains.
func (t *target) checkHold(f *syntax.File, fn *model.Func) []Finding {
	h := t.lang.Hold(f, fn, t.conf)
	lock, mode := t.inv.Hold.Lock.Raw, t.inv.Hold.Mode
	name := qualified(fn)
	var firstWork *model.Stmt
	for i, s := range h.Top {
		switch s.Kind {
		case model.Work:
			if firstWork == nil {
				firstWork = &h.Top[i]
			}
		case model.GuardStmt:
			if !guards(s.Guard, t.pattern) {
				continue
			}
			if s.Guard.Mode != mode {
				return []Finding{report(t.inv, f, s.Node, "%s is not held in %s mode here; %s must hold it from before its first statement that does work to the end, and takes it in the other mode", lock, mode, name)}
			}
			if firstWork != nil {
				return []Finding{report(t.inv, f, firstWork.Node, "%s is not held here; %s must hold it (%s) from before its first statement that does work to the end, and takes it only at line %d", lock, name, mode, f.Position(s.Node.Start).Line)}
			}
			return t.released(f, fn, h, s, i)
		}
	}
	for _, g := range h.Other {
		if guards(g, t.pattern) {
			return []Finding{report(t.inv, f, g.Node, "%s must hold %s (%s) for its whole body; this guard does not count: %s", name, lock, mode, g.NotHeld)}
		}
	}
	return []Finding{report(t.inv, f, fn.Name, "%s must hold %s (%s) from before its first statement that does work to the end, and declares no guard of it", name, lock, mode)}
}

// released reports an explicit release of the guard (drop, unlock) that
// lies before a top-level statement that does work.
func (t *target) released(f *syntax.File, fn *model.Func, h *model.Hold, g model.Stmt, at int) []Finding {
	for _, r := range h.Releases {
		if r.Guard != g.Guard.Name || r.Node.Start < g.Node.End {
			continue
		}
		for _, s := range h.Top[at+1:] {
			if s.Kind == model.Work && s.Node.End > r.Node.End && !s.Node.Contains(r.Node) {
				return []Finding{report(t.inv, f, r.Node, "%s is released here, but %s must hold it to the end: the statement at line %d still does work", t.inv.Hold.Lock.Raw, qualified(fn), f.Position(s.Node.Start).Line)}
			}
		}
	}
	return nil
}

// guards reports whether a guard locks the pattern's lock.
func guards(g *model.Guard, pattern []string) bool {
	for _, l := range g.Lock {
		if model.MatchLock(l, pattern) {
			return true
		}
	}
	return false
}
