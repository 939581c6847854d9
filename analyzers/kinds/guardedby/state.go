package guardedby

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
)

// level is how the lock of one value is held at a point: a must-analysis
// over paths, so merging paths keeps the weakest.
type level uint8

const (
	free      level = iota // not held on every path
	shared                 // at least read-locked on every path
	exclusive              // write-locked on every path
)

func modeOf(l level) invariants.LockMode {
	if l == exclusive {
		return invariants.Exclusive
	}
	return invariants.Shared
}

func levelOf(m invariants.LockMode) level {
	if m == invariants.Exclusive {
		return exclusive
	}
	return shared
}

// analysis follows the lock of the value key names (a package lock: the
// one lock, key "") through a body, from entry. Deferred calls are left
// to the returns (atReturn). The lock operations are those the other lock
// rules read (locks.Resolver: the mutex's methods, promoted from an
// embedded mutex, through a bound method value or a pointer alias).
func (ch *checker) analysis(c *contract, key string, entry level) *live.Analysis[level] {
	return &live.Analysis[level]{
		Entry: entry,
		Meet:  func(a, b level) level { return min(a, b) },
		Effect: func(l level, e *live.Effect) level {
			if e.Deferred || e.Call == nil {
				return l
			}
			for _, h := range ch.helpers[c][e.Callee] {
				if e.Callee == nil {
					break
				}
				if h.param == onPackage || ch.helperKey(e.Call, h) == key {
					switch {
					case h.release:
						return free
					case e.Cond:
						return l
					}
					return max(l, h.takes)
				}
			}
			op, ref := ch.res.Op(e.Call)
			if is, _ := ref.Is(c.lock); op == locks.None || !is {
				return l
			}
			if c.onValue && ch.lockKey(c, e.Call) != key {
				return l // the same lock of another value
			}
			switch op {
			case locks.Lock:
				if e.Cond {
					return l
				}
				return exclusive
			case locks.RLock:
				if e.Cond {
					return l
				}
				return max(l, shared)
			}
			return free
		},
	}
}

// visit runs the analysis over a body and hands over the state before
// every step, in the body, in the literals that run in place and, at the
// returns, in the literals it defers (which run last registered first,
// after the returns, from the state the returns leave).
//
// deferred sees the state before each deferred call that is not a
// literal, when it runs.
func (ch *checker) visit(a *live.Analysis[level], b *live.Body, step func(level, *live.Step), deferred func(level, *live.Effect)) {
	flow := a.Visit(b, live.Visitor[level]{Step: step})
	s, ok := flow.AtExits(a.Meet)
	if !ok {
		return
	}
	defers := b.Deferred()
	for i := len(defers) - 1; i >= 0; i-- {
		now := *defers[i].Effect
		now.Deferred = false
		if now.Lit != nil {
			from := *a
			from.Entry = s
			ch.visit(&from, now.Lit, step, deferred)
			s = a.After(now.Lit, s)
			continue
		}
		deferred(s, defers[i].Effect)
		s = a.Effect(s, &now)
	}
}

// helper is a function of the package that takes or gives up the lock of
// a value its caller passes (cr.lock(), cr.unlock() around cr.mu), found
// by the analysis of its body: it holds the lock at every return when
// entered without it, or holds it at none when entered with it.
type helper struct {
	param int
	// sub is the path from the parameter to the value whose lock it
	// takes (".thisLevel" for cd.lockLevels() taking
	// cd.thisLevel.RLock()), or "" for the parameter's own.
	sub     string
	takes   level // the level it leaves held
	release bool
}

// helperKey is the key of the value whose lock a call of a helper takes
// or gives up, or "".
func (ch *checker) helperKey(call *ast.CallExpr, h *helper) string {
	k := ch.key(argOf(ch.r.Pass.TypesInfo, call, h.param))
	if k == "" {
		return ""
	}
	return k + h.sub
}

// findHelpers finds the package's lock helpers of each contract. A helper
// may call another: the search repeats while it finds more.
func (ch *checker) findHelpers() {
	ch.helpers = map[*contract]map[*types.Func][]*helper{}
	for _, c := range ch.cs {
		ch.helpers[c] = map[*types.Func][]*helper{}
	}
	for changed := true; changed; {
		changed = false
		for _, u := range ch.units {
			if !mentionsLock(u) {
				continue
			}
			body := ch.r.Live.Func(u.Decl)
			for _, c := range ch.cs {
				if ch.helpers[c][u.Func] != nil {
					continue
				}
				var found []*helper
				for _, param := range lockParams(u, c) {
					key := ""
					if param.v != nil {
						key = keyOfVar(param.v)
					}
					// The parameter's own lock, then the locks of values
					// reached from it that the body takes or gives up.
					for _, sub := range append([]string{""}, ch.lockSubs(u, c, key)...) {
						// What a caller holds after the call: the state at the
						// returns once the deferred calls have run, so that
						// Lock with a deferred Unlock (testing's Fail) takes
						// nothing for its caller.
						a := ch.analysis(c, key+sub, free)
						if at, ok := a.AtReturn(body, a.Run(body), nil); ok && at > free {
							found = append(found, &helper{param: param.i, sub: sub, takes: at})
							continue
						}
						// A release is judged at the returns before the
						// deferred calls: a body that takes the lock and
						// defers its unlock gives up nothing its caller held.
						if at, ok := ch.analysis(c, key+sub, exclusive).Run(body).AtExits(meetLevel); ok && at == free {
							found = append(found, &helper{param: param.i, sub: sub, release: true})
						}
					}
					if len(found) > 0 {
						break
					}
				}
				if len(found) > 0 {
					ch.helpers[c][u.Func] = found
					changed = true
				}
			}
		}
	}
}

// lockSubs are the paths from a parameter (by its key) to the values
// whose lock c's lock operations in the unit's body take or give up:
// ".thisLevel" for cd.thisLevel.RLock() in a method of cd.
func (ch *checker) lockSubs(u *unit, c *contract, key string) []string {
	if key == "" || !c.onValue {
		return nil
	}
	var out []string
	for cur := range u.cur.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		op, ref := ch.res.Op(call)
		if is, _ := ref.Is(c.lock); op == locks.None || !is {
			continue
		}
		if sub, ok := strings.CutPrefix(ch.lockKey(c, call), key); ok && strings.HasPrefix(sub, ".") && !slices.Contains(out, sub) {
			out = append(out, sub)
		}
	}
	return out
}

// lockParam is a value whose lock a function may take for its caller.
type lockParam struct {
	i int
	v *types.Var
}

// lockParams lists the receiver and parameters of a unit (or, for a
// package lock, the one lock).
func lockParams(u *unit, c *contract) []lockParam {
	if !c.onValue {
		return []lockParam{{i: onPackage}}
	}
	var out []lockParam
	sig := u.Func.Signature()
	if r := sig.Recv(); r != nil && r.Name() != "" && r.Name() != "_" {
		out = append(out, lockParam{i: onReceiver, v: r})
	}
	for i := range sig.Params().Len() {
		if v := sig.Params().At(i); v.Name() != "" && v.Name() != "_" {
			out = append(out, lockParam{i: i, v: v})
		}
	}
	return out
}

// mentionsLock reports whether a unit may take or give up a lock: it
// calls some function. A body without calls is no helper.
func mentionsLock(u *unit) bool { return len(u.Refs) > 0 }

func meetLevel(a, b level) level { return min(a, b) }
