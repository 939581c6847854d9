package guardedby

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
)

// A value reached through memory, a field or an element (`dc.db`,
// `cd.thisLevel`, `s.levels[0]`), is often the value whose lock the
// function holds under another name: database/sql's DB.Close holds db.mu
// and calls dc.closeDBLocked() for each of its free connections, which
// needs dc.db.mu, and every connection's db is db; badger's
// fillTablesL0ToL0 holds s.levels[0]'s lock and reads cd.thisLevel.tables,
// and its caller set cd.thisLevel to s.levels[l] with l == 0. That two
// such expressions name one value is an invariant of the program, which
// no expression shows. Where the lock of such a value is not held, the
// same lock (the same field of the same struct type) of another value
// held here in the mode the access needs is taken for it, as Clang's
// analysis calls another value's lock a near match. A value named by a
// variable (the receiver, a parameter, a local) is never taken for
// another: transfer(a, b) holding a.mu and writing b.balance is reported.
// Nor is a value reached through a link of its own type (`r.other`,
// `n.next`, `n.children[i]`): a list's or a tree's links join distinct
// values by construction, and locking a node for its neighbour is the
// bug hand-over-hand locking exists to avoid. What is taken for the held
// value is reached from a value of another type: a back-pointer
// (`dc.db`), a handle in a descriptor (`cd.thisLevel`), an element of
// the owner's table (`s.levels[0]`). The limit: such a value whose lock
// really is another one than the lock held is not reported.

// throughMemory reports whether a value key names a value reached from a
// variable through a field or an element: `dc@12.db`, `s@3.levels[0]`.
func throughMemory(key string) bool {
	at := strings.IndexByte(key, '@')
	return at >= 0 && strings.ContainsAny(key[at:], ".[")
}

// nearMatch raises the level of the probes that find the lock of their
// value not held, a value reached through memory, to the level of the
// same lock of another value that the function takes and holds there.
func (ch *checker) nearMatch(u *unit, rt *root, c *contract, ps []*probe) {
	var near []*probe
	for _, p := range ps {
		if c.onValue && p.step != nil && p.seen && p.held < p.needed && throughMemory(p.key) && ch.linkedFromOther(p) {
			near = append(near, p)
		}
	}
	if len(near) == 0 {
		return
	}
	for _, k := range ch.lockedKeys(u, c) {
		at := map[*live.Step]level{}
		ch.visit(ch.analysis(c, k, ch.entryLevel(u, rt, c, k)), rt.body, func(l level, s *live.Step) {
			if old, ok := at[s]; !ok || l < old {
				at[s] = l
			}
		}, func(level, *live.Effect) {})
		for _, p := range near {
			if l, ok := at[p.step]; ok && p.key != k && l >= p.needed && l > p.held {
				p.held = l
			}
		}
	}
}

// lockedKeys lists the values whose lock the unit takes, itself or
// through a lock helper, by key.
func (ch *checker) lockedKeys(u *unit, c *contract) []string {
	var out []string
	add := func(k string) {
		if k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for cur := range u.cur.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if op, ref := ch.res.Op(call); op == locks.Lock || op == locks.RLock {
			if is, _ := ref.Is(c.lock); is {
				add(ch.lockKey(c, call))
			}
			continue
		}
		if id := calleeIdent(call); id != nil {
			fn, _ := ch.r.Pass.TypesInfo.Uses[id].(*types.Func)
			for _, h := range ch.helpers[c][fn] {
				if !h.release && h.param != onPackage {
					add(ch.helperKey(call, h))
				}
			}
		}
	}
	return out
}

// linkedFromOther reports whether a probe's value is reached, on its
// last step, from a value of another type than its own: a field of
// another struct, or an element of a container that one holds. False
// when it cannot be told.
func (ch *checker) linkedFromOther(p *probe) bool {
	holder, value := ch.lastLink(p.base)
	for seg := range strings.SplitSeq(p.sub, ".") {
		name, _, indexed := strings.Cut(seg, "[")
		if value == nil {
			break
		}
		if name == "" {
			if indexed {
				// An element of the value: held by what holds it.
				value = elemOf(value, true)
			}
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(value, true, ch.r.Pass.Pkg, name)
		f, ok := obj.(*types.Var)
		if !ok {
			return false
		}
		holder, value = value, elemOf(f.Type(), indexed)
	}
	if holder == nil || value == nil {
		return false
	}
	return !types.Identical(locks.Deref(holder), locks.Deref(value))
}

// lastLink returns the type of the value an expression reaches through
// its last field, and the type that holds that field (the struct's, for
// an element of a slice or map field too); nil holder for a variable.
func (ch *checker) lastLink(e ast.Expr) (holder, value types.Type) {
	info := ch.r.Pass.TypesInfo
	value = info.TypeOf(e)
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			// An element: held by what holds its container.
			h, _ := ch.lastLink(x.X)
			return h, value
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return info.TypeOf(x.X), value
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && isPointer(v.Type()) {
				if val := ch.r.Live.Value(v); val != nil {
					h, _ := ch.lastLink(val)
					return h, value
				}
			}
		}
		return nil, value
	}
}

// elemOf is a field's type, or its element's for an indexed one.
func elemOf(t types.Type, indexed bool) types.Type {
	if !indexed {
		return t
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return a.Elem()
		}
	}
	return nil
}
