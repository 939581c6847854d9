package mutate

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
)

// LockHelpers lists the package's functions that take the lock for their
// caller (acquire: entered without it, every return leaves it held, after
// the deferred calls) and those that give it up (release: entered with
// it, no return leaves it possibly held), each calling Lock, RLock,
// Unlock or RUnlock on the lock itself: net/http's cr.lock() and
// cr.unlock() around cr.mu. A kind whose reverts are made at a lock
// statement follows the lock through them, so that a function that takes
// it by a helper is a host too. A helper that works only through another
// helper is not found (limit: the reverts are then made elsewhere or are
// void, never wrong).
func (p *Package) LockHelpers(lock *types.Var) (acquire, release []*types.Func) {
	lk := p.Follow(lock, invariants.Exclusive, nil)
	for _, d := range p.SortedDecls() {
		if d.Body == nil {
			continue
		}
		takes, gives := lockOpsIn(lk, d)
		if !takes && !gives {
			continue
		}
		fn, ok := p.Pkg.TypesInfo.Defs[d.Name].(*types.Func)
		if !ok {
			continue
		}
		recv := locks.Receiver(p.Pkg.TypesInfo, d)
		body := p.Live.Func(d)
		if takes {
			// A body that takes the lock is no release helper, even
			// when it gives it up at the end (Lock, defer Unlock): it
			// gives up only what it took.
			must := helperAnalysis(lk, recv, false)
			if held, ok := must.AtReturn(body, must.Run(body), nil); ok && held {
				acquire = append(acquire, fn)
			}
			continue
		}
		may := helperAnalysis(lk, recv, true)
		if held, ok := may.AtReturn(body, may.Run(body), nil); ok && !held {
			release = append(release, fn)
		}
	}
	return acquire, release
}

// helperAnalysis is "the lock is held" from a free entry as a
// must-analysis (every path), or from a held entry as a may-analysis (some
// path): an acquire helper holds it on every path, a release helper on
// none. Either mode's lock call takes it.
func helperAnalysis(lk *locks.Followed, recv types.Object, fromHeld bool) *live.Analysis[bool] {
	meet := func(a, b bool) bool { return a && b }
	if fromHeld {
		meet = func(a, b bool) bool { return a || b }
	}
	return &live.Analysis[bool]{
		Entry: fromHeld,
		Meet:  meet,
		Effect: func(held bool, e *live.Effect) bool {
			if e.Deferred {
				return held
			}
			switch lk.Change(e, recv) {
			case locks.Acquires, locks.OtherMode:
				if e.Cond && !fromHeld {
					return held
				}
				return true
			case locks.Releases:
				if e.Cond && fromHeld {
					return held
				}
				return false
			}
			return held
		},
	}
}

// lockOpsIn reports whether a body calls Lock or RLock (takes), and
// Unlock or RUnlock (gives), on the lock itself: the cheap test before
// its control flow is analysed.
func lockOpsIn(lk *locks.Followed, d *ast.FuncDecl) (takes, gives bool) {
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			op, ref := lk.Res.Op(call)
			if is, _ := ref.Is(lk.Lock); is {
				switch op {
				case locks.Lock, locks.RLock:
					takes = true
				case locks.Unlock, locks.RUnlock:
					gives = true
				}
			}
		}
		return true
	})
	return takes, gives
}
