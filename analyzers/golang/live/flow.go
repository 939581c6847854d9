package live

import (
	"go/ast"
	"go/types"
)

// Flow is the result of a forward dataflow analysis over a body.
type Flow[S comparable] struct {
	// In is the state before each step of the live blocks.
	In map[*Step]S
	// Exits holds the state after each return step that is reached.
	Exits []Exit[S]
}

// Exit is the state at one return of the function.
type Exit[S comparable] struct {
	Return *ast.ReturnStmt
	State  S
}

// Forward runs a forward dataflow analysis over the live blocks of b,
// starting from entry at the function's entry. transfer gives the state
// after a step; meet combines the states of merging paths and must be
// monotone over a finite lattice (for a must-analysis: logical and).
func Forward[S comparable](b *Body, entry S, transfer func(S, *Step) S, meet func(S, S) S) *Flow[S] {
	n := len(b.Blocks)
	in := make([]S, n)
	seen := make([]bool, n)
	if n == 0 {
		return &Flow[S]{In: map[*Step]S{}}
	}
	in[0], seen[0] = entry, true
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		s := in[i]
		for _, step := range b.Blocks[i].Steps {
			s = transfer(s, step)
		}
		for _, succ := range b.Blocks[i].Succs {
			j := succ.index
			switch {
			case !seen[j]:
				in[j], seen[j] = s, true
				work = append(work, j)
			case meet(in[j], s) != in[j]:
				in[j] = meet(in[j], s)
				work = append(work, j)
			}
		}
	}
	f := &Flow[S]{In: map[*Step]S{}}
	for i, blk := range b.Blocks {
		if !seen[i] {
			continue
		}
		s := in[i]
		for _, step := range blk.Steps {
			f.In[step] = s
			s = transfer(s, step)
		}
		if blk.Return != nil {
			f.Exits = append(f.Exits, Exit[S]{Return: blk.Return, State: s})
		}
	}
	return f
}

// AtExits returns the meet of the states at the body's returns, and false
// when it never returns.
func (f *Flow[S]) AtExits(meet func(S, S) S) (S, bool) {
	var s S
	if len(f.Exits) == 0 {
		return s, false
	}
	s = f.Exits[0].State
	for _, e := range f.Exits[1:] {
		s = meet(s, e.State)
	}
	return s, true
}

// Through returns the state after a literal body runs from state in: the
// meet over its returns. A literal that never returns leaves in as it was.
func Through[S comparable](lit *Body, in S, transfer func(S, *Step) S, meet func(S, S) S) S {
	f := Forward(lit, in, transfer, meet)
	if len(f.Exits) == 0 {
		return in
	}
	s := f.Exits[0].State
	for _, e := range f.Exits[1:] {
		s = meet(s, e.State)
	}
	return s
}

// runKey identifies a question "does fn call its parameter i on every
// path?".
type runKey struct {
	fn *types.Func
	i  int
}

type runState uint8

const (
	runUnknown runState = iota
	runComputing
	runYes
	runNo
)

// runsParamLocked reports whether fn, declared in this package, calls its
// i-th parameter (a function) on every path to every return. A literal
// passed there is then known to run during the call.
func (in *Info) runsParamLocked(fn *types.Func, i int) bool {
	key := runKey{fn.Origin(), i}
	switch in.runs[key] {
	case runYes:
		return true
	case runNo, runComputing:
		return false
	}
	in.runs[key] = runComputing
	ok := in.computeRunsParam(key)
	if ok {
		in.runs[key] = runYes
	} else {
		in.runs[key] = runNo
	}
	return ok
}

func (in *Info) computeRunsParam(key runKey) bool {
	decl := in.decls[key.fn]
	sig, _ := key.fn.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || sig == nil || key.i >= sig.Params().Len() {
		return false
	}
	if sig.Variadic() && key.i >= sig.Params().Len()-1 {
		return false
	}
	param := sig.Params().At(key.i)
	body := in.bodyLocked(decl, decl.Body)
	var transfer func(bool, *Step) bool
	transfer = func(called bool, s *Step) bool {
		for _, e := range s.Effects {
			if e.Cond {
				continue
			}
			if e.Lit != nil && !e.Deferred {
				called = Through(e.Lit, called, transfer, and)
				continue
			}
			if id, ok := ast.Unparen(e.Call.Fun).(*ast.Ident); ok && in.pass.TypesInfo.Uses[id] == param {
				called = true
			}
		}
		return called
	}
	return HoldsAtEveryReturn(Forward(body, false, transfer, and))
}

// HoldsAtEveryReturn reports whether a boolean must-analysis is true at
// every return of the body. A body that never returns holds nothing: a
// helper that always panics makes no call and takes no lock for its caller.
func HoldsAtEveryReturn(f *Flow[bool]) bool {
	for _, e := range f.Exits {
		if !e.State {
			return false
		}
	}
	return len(f.Exits) > 0
}

func and(a, b bool) bool { return a && b }

// Analysis is a forward dataflow analysis stated per effect. Effects of a
// literal that runs now (called in place, through a bound variable, or by
// a same-package function that always calls it) are analysed inside the
// literal, in its own control flow; Effect never sees them. A deferred
// literal's effect is given to Effect as is (with Lit set), since when it
// runs is the analysis's business.
type Analysis[S comparable] struct {
	Entry  S
	Effect func(S, *Effect) S
	Meet   func(S, S) S
}

// transfer folds the effects of one step.
func (a *Analysis[S]) transfer(s S, step *Step) S {
	for _, e := range step.Effects {
		s = a.apply(s, e)
	}
	return s
}

func (a *Analysis[S]) apply(s S, e *Effect) S {
	if e.Lit != nil && !e.Deferred {
		out := a.runDefers(e.Lit, Through(e.Lit, s, a.transfer, a.Meet))
		if e.Cond {
			return a.Meet(s, out)
		}
		return out
	}
	return a.Effect(s, e)
}

// runDefers applies, at the exit of a literal that ran, the calls it
// deferred: they run when the literal returns, before whatever follows it
// (func() { mu.Lock(); defer mu.Unlock() }() leaves mu unlocked). A defer
// in the literal's entry block is registered on every path and runs for
// sure; one elsewhere may not have been registered, so it is applied as a
// call that may not run (Cond). Deferred calls run last in, first out.
func (a *Analysis[S]) runDefers(lit *Body, s S) S {
	deferred := lit.Deferred()
	for i := len(deferred) - 1; i >= 0; i-- {
		now := *deferred[i].Effect
		now.Deferred = false
		now.Cond = now.Cond || !deferred[i].Sure
		s = a.apply(s, &now)
	}
	return s
}

// After returns the state after a literal runs from state in: through
// its body, then its own deferred calls.
func (a *Analysis[S]) After(lit *Body, in S) S {
	return a.runDefers(lit, Through(lit, in, a.transfer, a.Meet))
}

// Run analyses a body.
func (a *Analysis[S]) Run(b *Body) *Flow[S] {
	return Forward(b, a.Entry, a.transfer, a.Meet)
}

// Visitor receives the state before each step and each effect, in the
// body and in every literal that runs inside it.
type Visitor[S comparable] struct {
	Step   func(S, *Step)
	Effect func(S, *Step, *Effect)
}

// Visit analyses a body and walks it with the state before every step and
// every effect, descending into literals that run now. It returns the flow
// of the outer body, whose Exits hold the state at each return.
func (a *Analysis[S]) Visit(b *Body, v Visitor[S]) *Flow[S] {
	f := a.Run(b)
	a.visit(b, f, v, map[*Body]bool{b: true})
	return f
}

func (a *Analysis[S]) visit(b *Body, f *Flow[S], v Visitor[S], active map[*Body]bool) {
	for _, blk := range b.Blocks {
		for _, step := range blk.Steps {
			s, ok := f.In[step]
			if !ok {
				continue
			}
			if v.Step != nil {
				v.Step(s, step)
			}
			for _, e := range step.Effects {
				if v.Effect != nil {
					v.Effect(s, step, e)
				}
				if e.Lit != nil && !e.Deferred && !active[e.Lit] {
					active[e.Lit] = true
					a.visit(e.Lit, Forward(e.Lit, s, a.transfer, a.Meet), v, active)
					delete(active, e.Lit)
				}
				s = a.apply(s, e)
			}
		}
	}
}

// AtReturn runs the body's deferred calls at its returns, last registered
// first, from the meet of the states its returns leave, as Go runs them.
// visit, when set, sees the state before each deferred call that is not a
// literal, and before each effect inside a deferred literal; the calls
// are handed over as calls that run now (Deferred unset). It returns the
// state after the last deferred call, and false for a body that never
// returns, which runs none of them.
func (a *Analysis[S]) AtReturn(body *Body, flow *Flow[S], visit func(S, *Effect)) (S, bool) {
	s, ok := flow.AtExits(a.Meet)
	if !ok {
		return s, false
	}
	defers := body.Deferred()
	for i := len(defers) - 1; i >= 0; i-- {
		now := *defers[i].Effect
		now.Deferred = false
		if now.Lit != nil {
			if visit != nil {
				from := *a
				from.Entry = s
				from.Visit(now.Lit, Visitor[S]{Effect: func(s S, _ *Step, e *Effect) { visit(s, e) }})
			}
			s = a.After(now.Lit, s)
			continue
		}
		if visit != nil {
			visit(s, &now)
		}
		s = a.apply(s, &now)
	}
	return s, true
}
