package hold

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
)

// Balance: a target that takes the lock gives it up before it returns,
// by a deferred unlock or an explicit one on every path, unless the
// invariant says it hands the lock to its caller (returns_held). The lock
// state at each return is the must-analysis the rest of the rule uses,
// one return at a time, followed through the deferred calls that run
// there: a return reported is one every path to which holds the lock
// when the function is gone. A return that some paths reach with the lock
// and others without (a conditional unlock) is not reported: which paths
// run together is not tracked, and reporting them would flag correct code
// that locks and unlocks under the same condition.
//
// Panics and runtime.Goexit are not returns: a path that panics with the
// lock held is not reported. A deferred unlock runs on it; an explicit
// one does not, but code that panics under a lock it unlocks explicitly
// (`mu.Lock(); v := m[k]; mu.Unlock()`, where an index may panic) is
// everywhere in real Go, and a panic there usually ends the program. A
// goroutine the target starts that releases the lock later (`go func()
// { ...; mu.Unlock() }()`) hands the lock over: the target returns with
// it held, and says so with returns_held.

// releaser is the state of the question "does this function release the
// lock?".
type releaser uint8

const (
	releaseUnknown releaser = iota
	releaseComputing
	releaseYes
	releaseNo
)

// releases reports whether a call of fn gives up the lock: fn is declared
// in the package, and run with the lock held it returns without it on
// every path (`func (c *conn) unlock() { c.mu.Unlock() }`), calling
// Unlock or RUnlock on it itself (unlocksIn). A deferred call of such a
// helper is a deferred unlock. A function of another package is not
// followed, so a release through one is not seen (limit).
func (c *checker) releases(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	switch c.releasers[fn] {
	case releaseYes:
		return true
	case releaseNo, releaseComputing:
		return false
	}
	c.releasers[fn] = releaseComputing
	ok := false
	if decl := c.r.Live.Decl(fn); decl != nil && !slices.Contains(c.lock.Helpers, fn) && c.unlocksIn(decl) {
		a := c.mayHold(locks.Receiver(c.r.Pass.TypesInfo, decl))
		body := c.r.Live.Func(decl)
		flow := a.Run(body)
		held, returns := a.AtReturn(body, flow, nil)
		ok = returns && !held
	}
	if ok {
		c.releasers[fn] = releaseYes
	} else {
		c.releasers[fn] = releaseNo
	}
	return ok
}

// unlocksIn reports whether a declaration's body calls Unlock or RUnlock
// on the lock itself: a cheap test that spares building the control flow
// of every function a target calls (a body of a hundred thousand calls
// of small functions costs as many flow graphs otherwise). So a helper
// that releases the lock only through another helper is not seen as a
// release (limit).
func (c *checker) unlocksIn(decl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			op, ref := c.lock.Res.Op(call)
			if is, _ := ref.Is(c.lock.Lock); is && (op == locks.Unlock || op == locks.RUnlock) {
				found = true
			}
		}
		return !found
	})
	return found
}

// mayHold tracks "the lock may be held" from a held entry, for
// releases: a function releases the lock when no path through it, its
// deferred calls included, returns with the lock held. A conditional
// release (`if shouldUnlock { mu.Unlock() }`) leaves it possibly held.
func (c *checker) mayHold(recv types.Object) *live.Analysis[bool] {
	return &live.Analysis[bool]{
		Entry: true,
		Meet:  func(a, b bool) bool { return a || b },
		Effect: func(held bool, e *live.Effect) bool {
			if e.Deferred {
				return held
			}
			switch c.lock.Change(e, recv) {
			case locks.Acquires, locks.OtherMode:
				return true
			case locks.Releases:
				return held && e.Cond
			}
			if held && !e.Cond && c.releases(e.Callee) {
				return false
			}
			return held
		},
	}
}

// leaks returns the returns of a target that leave the lock held: those
// every path to which holds it after the deferred calls have run.
func (c *checker) leaks(t rule.Target, flow *live.Flow[bool], recv types.Object) []rule.Exit {
	a := c.analysis(recv)
	var out []rule.Exit
	for _, ex := range flow.Exits {
		if held, _ := a.AtReturn(t.Body, &live.Flow[bool]{Exits: []live.Exit[bool]{ex}}, nil); held {
			out = append(out, rule.Exit{At: rule.At(ex.Return.Pos()), End: ex.Return.Return == t.Decl.Body.Rbrace})
		}
	}
	return out
}
