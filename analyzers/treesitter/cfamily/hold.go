package cfamily

import (
	"fmt"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// lockTags are constructor tags: not mutexes, and two of them mean the
// guard does not (surely) lock.
var lockTags = map[string]string{
	"defer_lock":  "it is constructed with std::defer_lock and does not lock",
	"try_to_lock": "it is constructed with std::try_to_lock and may not lock",
	"adopt_lock":  "",
}

// guardType returns the mode of a guard type (`std::lock_guard<M>`,
// `std::scoped_lock`, a CTAD `std::unique_lock`), if it is one.
func guardType(f *syntax.File, t *syntax.Node, c *model.Config) (invariants.LockMode, bool) {
	if t == nil {
		return "", false
	}
	return c.GuardMode(nameSegs(f, t))
}

// guardDecl recognises a guard declaration in either shape. It returns nil
// when n declares no guard.
func guardDecl(f *syntax.File, n *syntax.Node, c *model.Config) *model.Guard {
	if n.Kind != "declaration" {
		return nil
	}
	mode, ok := guardType(f, n.Child("type"), c)
	d := n.Child("declarator")
	var args []*syntax.Node
	var scoped *model.ScopedGuard
	if !ok && n.Child("type") != nil {
		scoped, ok = c.Scoped(nameSegs(f, n.Child("type")))
	}
	if !ok {
		// `auto g = std::unique_lock(mu);`, `auto g = T<M>(mu);`,
		// `auto g = T<M>{mu};`: the guard is the value a deduced local
		// is initialised with (copy elision makes it the local itself).
		if mode, args, ok = autoGuard(f, n, c); !ok {
			return nil
		}
		d = nil
	}
	g := &model.Guard{Node: n, Mode: mode, Takes: true, Scope: enclosingBlock(n)}
	if t := n.Child("type"); t != nil && scoped == nil {
		if segs := nameSegs(f, t); len(segs) > 0 {
			g.ReleasedBy = model.GuardReleases[segs[len(segs)-1]]
		}
	}
	switch {
	case d == nil && args != nil:
		if name := n.Child("declarator").Child("declarator"); name != nil {
			g.Name = f.Text(name)
		}
		if len(args) == 0 {
			g.NotHeld, g.Takes, g.Scope = "it is constructed without a mutex and holds none", false, nil
			return g
		}
	case d == nil:
		return nil
	case d.Kind == "function_declarator":
		// `std::lock_guard<M> l(m);` parses as a declaration of a function
		// l taking a parameter of type m.
		if name := d.Child("declarator"); name != nil {
			g.Name = f.Text(name)
		}
		if ps := d.Child("parameters"); ps != nil {
			args = ps.NamedChildren()
		}
	case d.Kind == "init_declarator":
		if name := d.Child("declarator"); name != nil {
			g.Name = f.Text(name)
		}
		if v := d.Child("value"); v != nil {
			args = v.NamedChildren()
		}
	case d.Kind == "identifier" && scoped != nil:
		g.Name = f.Text(d)
	case d.Kind == "identifier":
		g.Name = f.Text(d)
		g.NotHeld, g.Takes, g.Scope = "it is constructed without a mutex and holds none", false, nil
		return g
	default:
		return nil
	}
	g.Takes, g.Scope = true, enclosingBlock(n)
	if scoped != nil {
		return scopedGuard(f, g, scoped, args)
	}
	for _, a := range args {
		toks := f.Tokens(a)
		if len(toks) > 0 {
			if why, tag := lockTags[toks[len(toks)-1]]; tag {
				g.Takes = false // it defers, tries or adopts the lock
				if why != "" {
					g.NotHeld, g.Scope = why, nil
				}
				continue
			}
		}
		if len(toks) > 1 && toks[0] == "&" {
			// absl::MutexLock l(&mu_) takes the mutex's address.
			toks = toks[1:]
		}
		g.Lock = append(g.Lock, toks)
	}
	return g
}

// scopedGuard completes the guard of a local of a class the code
// declares as a scoped guard (model.ScopedGuard): the locks of the
// constructor its arguments call, the arguments put for its parameters.
func scopedGuard(f *syntax.File, g *model.Guard, s *model.ScopedGuard, args []*syntax.Node) *model.Guard {
	ctor, ok := s.Ctor(len(args))
	if !ok {
		g.NotHeld, g.Takes, g.Scope = fmt.Sprintf("no one constructor of %s annotated as acquiring a lock takes %d arguments", s.Class, len(args)), false, nil
		return g
	}
	toks := make([][]string, len(args))
	for i, a := range args {
		toks[i] = f.Tokens(a)
	}
	g.Lock, g.Mode, g.ReleasedBy = ctor.LocksOf(toks), ctor.Mode, s.Releases
	return g
}

// autoGuard recognises a deduced local initialised with a guard:
// `auto g = T(args)` or `auto g = T{args}`, T a guard type, and returns
// its mode and arguments.
func autoGuard(f *syntax.File, n *syntax.Node, c *model.Config) (invariants.LockMode, []*syntax.Node, bool) {
	t, d := n.Child("type"), n.Child("declarator")
	if t == nil || t.Kind != "placeholder_type_specifier" || d == nil || d.Kind != "init_declarator" || len(n.ChildrenOf("declarator")) != 1 {
		return "", nil, false
	}
	v := d.Child("value")
	var typ, args *syntax.Node
	switch {
	case v == nil:
		return "", nil, false
	case v.Kind == "call_expression":
		typ, args = v.Child("function"), v.Child("arguments")
	case v.Kind == "compound_literal_expression":
		typ, args = v.Child("type"), v.Child("value")
	default:
		return "", nil, false
	}
	mode, ok := guardType(f, typ, c)
	if !ok || args == nil {
		return "", nil, false
	}
	kids := args.NamedChildren()
	if kids == nil {
		kids = []*syntax.Node{}
	}
	return mode, kids, true
}

// initGuard recognises the guard an `if` or `switch` declares in its
// init-statement, `if (std::lock_guard lk(mu); ready) { .. }`: it holds
// its lock over the whole statement, the else and every case included.
func initGuard(f *syntax.File, n *syntax.Node, c *model.Config) *model.Guard {
	if n.Kind != "if_statement" && n.Kind != "switch_statement" {
		return nil
	}
	cond := n.Child("condition")
	if cond == nil {
		return nil
	}
	init := cond.Child("initializer")
	if init == nil {
		return nil
	}
	for _, d := range init.NamedChildren() {
		if g := guardDecl(f, d, c); g != nil {
			if g.Scope != nil {
				g.Scope, g.Statement = n, true
			}
			return g
		}
	}
	return nil
}

// regionWork lists the statements that do work of an if or a switch
// whose init-statement declares a guard (model.Guard.RegionWork): those
// of its branches and of its cases, in order.
func regionWork(f *syntax.File, n *syntax.Node, l locals) []*syntax.Node {
	var out []*syntax.Node
	var add func(b *syntax.Node)
	add = func(b *syntax.Node) {
		switch b.Kind {
		case "compound_statement", "case_statement", "else_clause":
			for _, st := range b.NamedChildren() {
				if st.Field != "value" {
					add(st)
				}
			}
		default:
			if !syntax.IsComment(b) && core.AnyWork(steps(f, b, l)) {
				out = append(out, b)
			}
		}
	}
	for _, field := range []string{"consequence", "alternative", "body"} {
		if b := n.Child(field); b != nil {
			add(b)
		}
	}
	return out
}

// enclosingBlock returns the compound statement a declaration is scoped
// to (an #if arm is no scope of its own).
func enclosingBlock(n *syntax.Node) *syntax.Node { return n.Innermost("compound_statement") }

// guardTemporary recognises a guard that is built and destroyed in one
// expression statement: `std::lock_guard<M>{m};`.
func guardTemporary(f *syntax.File, n *syntax.Node, c *model.Config) *model.Guard {
	if n.Kind != "expression_statement" {
		return nil
	}
	kids := n.NamedChildren()
	if len(kids) != 1 {
		return nil
	}
	e := kids[0]
	var t, args *syntax.Node
	switch e.Kind {
	case "compound_literal_expression":
		t, args = e.Child("type"), e.Child("value")
	case "call_expression":
		t, args = e.Child("function"), e.Child("arguments")
	default:
		return nil
	}
	mode, ok := guardType(f, t, c)
	if !ok || args == nil {
		return nil
	}
	g := &model.Guard{Node: n, Mode: mode, NotHeld: "it is a temporary, destroyed (and unlocked) at the end of its statement", Takes: true}
	for _, a := range args.NamedChildren() {
		g.Lock = append(g.Lock, f.Tokens(a))
	}
	return g
}

// hold classifies the live statements of the body's outermost block and
// collects every other guard and every explicit unlock.
func hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold {
	h := &model.Hold{}
	w := newWalker(f, fn.Body, c)
	// Statements inside an #if arm of the outermost block count as
	// top-level ones; the walker decides whether the arm is compiled.
	top := map[*syntax.Node]bool{}
	var mark func(items []*syntax.Node)
	mark = func(items []*syntax.Node) {
		for _, n := range items {
			top[n] = true
			if isPreproc(n) {
				for _, b := range branches(f, n, c) {
					mark(b.items)
				}
			}
		}
	}
	mark(fn.Body.Children)
	l := paramNames(f, fn, c)
	w.onStmt = func(n *syntax.Node, s core.Liveness) {
		if isPreproc(n) {
			return
		}
		g := guardDecl(f, n, c)
		if g == nil {
			g = guardTemporary(f, n, c)
		}
		if g == nil {
			g = helperGuard(f, n, c)
		}
		if g == nil {
			if g = initGuard(f, n, c); g != nil && top[n] {
				g.RegionWork = regionWork(f, n, l)
			}
		}
		h.Add(n, s, top[n], g, top[n] && s.Live() && core.AnyWork(steps(f, n, l)))
		if top[n] {
			l.declare(f, n)
		}
	}
	w.stmt(fn.Body, core.Liveness{})
	for _, call := range w.calls {
		if !call.Live() || len(call.Callee) != 3 || call.Callee[1] != "." {
			continue
		}
		switch call.Callee[2] {
		case "unlock":
			h.Releases = append(h.Releases, model.Release{Node: call.Node, Guard: call.Callee[0]})
		case "lock":
			h.Relocks = append(h.Relocks, model.Release{Node: call.Node, Guard: call.Callee[0]})
		case "release":
			// std::unique_lock::release gives up the mutex without
			// unlocking it.
			h.Leaks = append(h.Leaks, model.Release{Node: call.Node, Guard: call.Callee[0]})
		default:
			if releasedBy(h, call.Callee[0], call.Callee[2]) {
				h.Releases = append(h.Releases, model.Release{Node: call.Node, Guard: call.Callee[0]})
			}
		}
	}
	lockCalls(f, fn.Body, h, w.calls, c)
	aliases := localAliases(f, fn.Body)
	for _, g := range h.All {
		g.Lock = aliases.Expand(g.Node, g.Lock)
	}
	return h
}

// releasedBy reports whether a method called on a guard variable is one
// its class's annotations say releases it (`section.Leave()`).
func releasedBy(h *model.Hold, guard, method string) bool {
	for _, g := range h.All {
		if g.Name == guard && slices.Contains(g.ReleasedBy, method) {
			return true
		}
	}
	return false
}

// helperGuard recognises a local bound to the guard an acquire helper
// returns: `auto g = lock_encoders();`, `auto g(lock_encoders());`.
func helperGuard(f *syntax.File, n *syntax.Node, c *model.Config) *model.Guard {
	if n.Kind != "declaration" || len(c.Acquire) == 0 {
		return nil
	}
	ds := n.ChildrenOf("declarator")
	if len(ds) != 1 || ds[0].Kind != "init_declarator" {
		return nil
	}
	name, v := ds[0].Child("declarator"), ds[0].Child("value")
	if v != nil && v.Kind == "argument_list" && len(v.NamedChildren()) == 1 {
		v = v.NamedChildren()[0]
	}
	if name == nil || name.Kind != "identifier" || v == nil || v.Kind != "call_expression" {
		return nil
	}
	callee := f.Tokens(v.Child("function"))
	for _, h := range c.Acquire {
		if model.CallsName(callee, h.Scoped) {
			return &model.Guard{Node: n, Name: f.Text(name), Takes: true, Scope: enclosingBlock(n), Acquire: h.Raw}
		}
	}
	return nil
}
