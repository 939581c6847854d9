package invariants

import (
	"fmt"
	"regexp"
	"strings"
)

// GuardType is a guard class that the invariants file declares for the C
// family (`guards: [{type: absl::MutexLock}, {type: absl::ReaderMutexLock,
// mode: shared}]`): a local of the type, constructed with a mutex (or its
// address), holds that mutex in Mode until its block ends.
type GuardType struct {
	// Raw is the type as written; Scoped its `::`-separated segments,
	// compared with the end of the declared type's path as a target
	// name is (`MutexLock` matches `absl::MutexLock`).
	Raw    string
	Scoped []string
	Mode   LockMode
	Pos    Pos
}

// LockCalls are the explicit lock calls the invariants file declares,
// by name (`lock_calls: {exclusive: [Lock, WriterLock], shared:
// [ReaderLock], unlock: [Unlock, ReaderUnlock]}`). For the C family, a
// method called on a mutex with no arguments (`mu_.Lock()`) or a function
// called with the mutex's address (`uv_mutex_lock(&mu)`); for Rust, a
// method whose result is a guard (`m.lock_exclusive()`), which has no
// unlock.
type LockCalls struct {
	Exclusive, Shared, Unlock []string
}

// Empty reports whether no lock call is declared.
func (l LockCalls) Empty() bool {
	return len(l.Exclusive) == 0 && len(l.Shared) == 0 && len(l.Unlock) == 0
}

// merge returns the calls of both.
func (l LockCalls) merge(o LockCalls) LockCalls {
	return LockCalls{
		Exclusive: append(append([]string(nil), l.Exclusive...), o.Exclusive...),
		Shared:    append(append([]string(nil), l.Shared...), o.Shared...),
		Unlock:    append(append([]string(nil), l.Unlock...), o.Unlock...),
	}
}

var (
	// guardKeys are the keys of one `guards` item.
	guardKeys = []string{"type", "mode"}
	// lockCallKeys are the keys of `lock_calls`.
	lockCallKeys = []string{"exclusive", "shared", "unlock"}
	// callName is one identifier: lock calls are matched by their last
	// name, as the built-in ones are.
	callName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// guardTypes reads a `guards` list.
func (d *decoder) guardTypes(f field, what string) []GuardType {
	var out []GuardType
	for i, item := range d.seq(f, what) {
		w := fmt.Sprintf("%s[%d]", what, i)
		m := d.mapping(item, w, guardKeys...)
		if m == nil {
			continue
		}
		v, ok := m["type"]
		if !ok {
			d.errorf(item, "%s: missing `type` (the guard class, as `absl::MutexLock`)", w)
			continue
		}
		s, ok := d.nonEmptyStr(v, w+".type")
		if !ok {
			continue
		}
		n, err := parseScoped(s)
		if err != nil || n.Params != "" || strings.ContainsAny(s, "<>") {
			d.errorf(v.value, "%s.type %q: want a class name with `::` between segments, without template arguments", w, s)
			continue
		}
		scoped := n.Scoped
		if len(scoped) > 0 && scoped[0] == "" {
			scoped = scoped[1:]
		}
		out = append(out, GuardType{Raw: s, Scoped: scoped, Mode: d.lockMode(m, "mode", w+".mode"), Pos: d.pos(v.value)})
	}
	return out
}

// lockCalls reads `lock_calls`.
func (d *decoder) lockCalls(f field, what string) LockCalls {
	var out LockCalls
	m := d.mapping(f.value, what, lockCallKeys...)
	if m == nil {
		return out
	}
	if len(m) == 0 {
		d.errorf(f.value, "%s must declare at least one of %s", what, strings.Join(lockCallKeys, ", "))
	}
	for _, k := range lockCallKeys {
		v, ok := m[k]
		if !ok {
			continue
		}
		var names []string
		for i, item := range d.seq(v, what+"."+k) {
			s, ok := d.nonEmptyStr(field{key: v.key, value: item}, fmt.Sprintf("%s.%s[%d]", what, k, i))
			if !ok {
				continue
			}
			if !callName.MatchString(s) {
				d.errorf(item, "%s.%s[%d] %q: want the name of the call (`Lock`, `uv_mutex_lock`), without receiver or arguments", what, k, i, s)
				continue
			}
			names = append(names, s)
		}
		switch k {
		case "exclusive":
			out.Exclusive = names
		case "shared":
			out.Shared = names
		case "unlock":
			out.Unlock = names
		}
	}
	return out
}

// decodeGuards reads the invariant's `guards` and `lock_calls`, adds
// those of its file, and checks that its language has them: guard types
// are the C family's; a Rust lock call is a method returning a guard,
// which no call unlocks.
func (d *decoder) decodeGuards(m map[string]field, inv *Invariant, what string, ctx nameContext) {
	g, gok := m["guards"]
	l, lok := m["lock_calls"]
	if !inv.Lang.TreeSitter() {
		for _, f := range []struct {
			ok  bool
			key field
		}{{gok, g}, {lok, l}} {
			if f.ok {
				d.errorf(f.key.key, "%s: `%s` is for lang %s; Go locks are known by their types", what, f.key.key.Value, langList(treeSitterLangs()))
			}
		}
		return
	}
	if inv.Lang != LangRust {
		inv.Guards = append(inv.Guards, ctx.guards...)
	}
	inv.LockCalls = ctx.lockCalls
	if inv.Lang == LangRust {
		inv.LockCalls.Unlock = nil
	}
	if gok {
		types := d.guardTypes(g, "guards")
		if inv.Lang == LangRust {
			d.errorf(g.key, "%s: `guards` is for the C family; a Rust guard is the value of a lock method: declare the method under `lock_calls`", what)
		} else {
			inv.Guards = append(inv.Guards, types...)
		}
	}
	if lok {
		calls := d.lockCalls(l, "lock_calls")
		if inv.Lang == LangRust && len(calls.Unlock) > 0 {
			d.errorf(l.key, "%s: `lock_calls.unlock` is for the C family; a Rust guard is released when it is dropped", what)
		}
		inv.LockCalls = inv.LockCalls.merge(calls)
	}
}
