package lockorder

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/golang/acquires"
	"github.com/guardlint/guardlint/analyzers/golang/calls"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"golang.org/x/tools/go/ast/inspector"
)

// checker checks one lock order over a package.
type checker struct {
	r   *rule.Rule
	acq *acquires.Info
	res *locks.Resolver
	o   *order
}

func newChecker(r *rule.Rule, acq *acquires.Info, o *order) *checker {
	return &checker{r: r, acq: acq, res: acq.Resolver(), o: o}
}

// run checks every declaration of the package, and every function
// literal that runs apart from its declaration from its own entry.
func (ch *checker) run() {
	for _, u := range calls.Units(ch.r.Inspect, ch.r.Pass.TypesInfo) {
		decl, _ := ch.r.Inspect.Root().FindNode(u.Decl)
		body := ch.r.Live.Func(u.Decl)
		name := rule.FuncName(u.Func)
		ch.check(body, name, decl)
		for lc := range decl.Preorder((*ast.FuncLit)(nil)) {
			if calls.Detached(ch.r.Live, lc, body) {
				ch.check(ch.r.Live.Lit(lc.Node().(*ast.FuncLit)), name+" (func literal)", decl)
			}
		}
	}
}

// held is the set of locks a body may hold at a point, over every path:
// bit i for listed lock i, and, with unlisted: last, one bit for each
// other lock the body takes (the last bit shared by any beyond).
type held uint64

// body is one body's view of the locks it takes.
type body struct {
	ch     *checker
	others []types.Object // the unlisted locks, by bit past the listed ones
	text   []string       // how the body spells each of them
}

// bit classifies a lock operation: the bit of its lock, or -1 when the
// order says nothing of it.
func (b *body) bit(call *ast.CallExpr) (int, locks.Op) {
	op, ref := b.ch.res.Op(call)
	if op == locks.None {
		return -1, op
	}
	for i, v := range b.ch.o.locks {
		if is, _ := ref.Is(v); v != nil && is {
			return i, op
		}
	}
	if !b.ch.o.last || ref.Obj == nil {
		return -1, op
	}
	for i, obj := range b.others {
		if obj == ref.Obj {
			return len(b.ch.o.locks) + i, op
		}
	}
	n := len(b.ch.o.locks) + len(b.others)
	if n >= 63 {
		return 63, op
	}
	b.others = append(b.others, ref.Obj)
	b.text = append(b.text, types.ExprString(ast.Unparen(call.Fun).(*ast.SelectorExpr).X))
	return n, op
}

// lockName names the lock of a bit for messages.
func (b *body) lockName(i int) string {
	if i < len(b.ch.o.locks) {
		return b.ch.o.name(i)
	}
	if j := i - len(b.ch.o.locks); j < len(b.text) {
		return "the unlisted lock " + b.text[j]
	}
	return "an unlisted lock"
}

// check follows the locks held through one body and reports every lock
// of the order taken while a later one is held.
func (ch *checker) check(lb *live.Body, name string, decl inspector.Cursor) {
	b := &body{ch: ch}
	f := facts[rule.Site]{order: ch.o.words()}
	seen := map[[3]any]bool{}
	add := func(r reversal[rule.Site]) {
		key := [3]any{r.at, r.early, r.late}
		if !seen[key] {
			seen[key] = true
			f.reversed = append(f.reversed, r)
		}
	}
	a := &live.Analysis[held]{
		Meet: func(x, y held) held { return x | y },
		Effect: func(s held, e *live.Effect) held {
			if e.Deferred || e.Call == nil {
				return s
			}
			i, op := b.bit(e.Call)
			switch {
			case i < 0:
				return s
			case op == locks.Lock || op == locks.RLock:
				return s | 1<<i
			case e.Cond:
				return s
			}
			return s &^ (1 << i)
		},
	}
	visit := func(s held, e *live.Effect) {
		if e.Call == nil {
			return
		}
		if i, op := b.bit(e.Call); i >= 0 && i < len(ch.o.locks) && (op == locks.Lock || op == locks.RLock) {
			for _, j := range b.later(s, i) {
				add(reversal[rule.Site]{fn: name, at: e.Call, early: ch.o.name(i), late: b.lockName(j), heldAt: b.takenBefore(decl, e.Call, j)})
			}
			return
		}
		if e.Callee == nil {
			return
		}
		t := ch.acq.Of(e.Callee)
		for i, key := range ch.o.keys {
			k := t.Take(key, false)
			if k == nil {
				continue
			}
			for _, j := range b.later(s, i) {
				if j < len(ch.o.keys) && slices.Contains(k.Released, ch.o.keys[j]) {
					continue // the callee gives the held lock up before it takes this one
				}
				add(reversal[rule.Site]{fn: name, at: e.Call, early: ch.o.name(i), late: b.lockName(j), heldAt: b.takenBefore(decl, e.Call, j),
					path: calls.Path(k.Path).From(name), takenAt: k.Site.String()})
			}
		}
	}
	flow := a.Visit(lb, live.Visitor[held]{Effect: func(s held, _ *live.Step, e *live.Effect) {
		if !e.Deferred {
			visit(s, e)
		}
	}})
	a.AtReturn(lb, flow, visit)
	verdict(ch.r.For(ch.o.inv), f)
}

// later returns the held locks that the order puts after listed lock i.
func (b *body) later(s held, i int) []int {
	var out []int
	for j := 0; j < 64; j++ {
		if s&(1<<j) == 0 || j == i {
			continue
		}
		if j > i && (j < len(b.ch.o.locks) || b.ch.o.last) {
			out = append(out, j)
		}
	}
	return out
}

// takenBefore returns where the body took the lock of bit j before at,
// or nil.
func (b *body) takenBefore(decl inspector.Cursor, at *ast.CallExpr, j int) ast.Node {
	return calls.LastBefore(decl, at.Pos(), func(call *ast.CallExpr) bool {
		i, op := b.bit(call)
		return i == j && (op == locks.Lock || op == locks.RLock)
	})
}
