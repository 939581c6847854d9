package live

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"github.com/guardlint/guardlint/analyzers/core"
	"golang.org/x/tools/go/cfg"
)

// Reasons a call does not count as live, as phrases for diagnostics.
const (
	deadConst      = "in a branch that a constant condition disables"
	deadTerminated = "after a terminating statement"
	deadNeverRun   = "in a function literal that is never called"
	deadGo         = "in a go statement, which runs concurrently and may not have run when the function returns"
	deadValue      = "a function or method value that is never called here"
)

// builder builds one Body.
type builder struct {
	in      *Info
	body    *Body
	info    *types.Info
	tagged  map[ast.Expr]bool     // case expressions of tagged switches: values, not conditions
	boundIn map[*ast.FuncLit]bool // literals bound to a runnable variable in this body
	seen    map[ast.Node]bool     // occurrences recorded
}

func newBuilder(in *Info, b *Body) *builder {
	return &builder{
		in:      in,
		body:    b,
		info:    in.pass.TypesInfo,
		tagged:  map[ast.Expr]bool{},
		boundIn: map[*ast.FuncLit]bool{},
		seen:    map[ast.Node]bool{},
	}
}

func (b *builder) build(block *ast.BlockStmt) {
	ast.Inspect(block, func(n ast.Node) bool {
		if sw, ok := n.(*ast.SwitchStmt); ok && sw.Tag != nil {
			for _, c := range sw.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					b.tagged[e] = true
				}
			}
		}
		return true
	})
	// The control-flow graph is ctrlflow's: calls of functions that never
	// return (this package's, by its analysis; others', by its facts) end
	// their block.
	g := b.cfg()
	if g == nil {
		// ctrlflow builds no graph for the intrinsics it knows
		// (os.Exit, runtime.Goexit, ...): their bodies are the
		// platform's business, and have no live code to report.
		return
	}
	reach := b.fold(g)

	index := map[*cfg.Block]*Block{}
	for _, cb := range g.Blocks {
		if reach[cb] {
			blk := &Block{index: len(b.body.Blocks)}
			index[cb] = blk
			b.body.Blocks = append(b.body.Blocks, blk)
		}
	}
	attached := map[*Body]bool{}
	for _, cb := range g.Blocks {
		blk := index[cb]
		if blk == nil {
			reason := deadConst
			if !cb.Live {
				reason = deadTerminated
			}
			for _, n := range cb.Nodes {
				b.dead(n, reason, false)
			}
			continue
		}
		for _, n := range cb.Nodes {
			s := &Step{Node: n}
			b.visit(n, s, ctx{})
			blk.Steps = append(blk.Steps, s)
			for _, e := range s.Effects {
				if e.Lit != nil {
					attached[e.Lit] = true
				}
			}
		}
		if len(cb.Nodes) > 0 {
			blk.Return, _ = cb.Nodes[len(cb.Nodes)-1].(*ast.ReturnStmt)
		}
		for _, succ := range b.liveSuccs(cb) {
			blk.Succs = append(blk.Succs, index[succ])
		}
	}
	// Literals that run here contribute their calls; bound literals that
	// are never called contribute theirs as dead.
	for lit := range attached {
		for _, o := range lit.Calls {
			b.record(o)
		}
		b.body.Dead = append(b.body.Dead, lit.Dead...)
	}
	for lit := range b.boundIn {
		if body := b.in.bodies[lit]; body == nil || !attached[body] {
			b.dead(lit.Body, deadNeverRun, true)
		}
	}
	sort.SliceStable(b.body.Calls, func(i, j int) bool {
		return b.body.Calls[i].Node.Pos() < b.body.Calls[j].Node.Pos()
	})
}

// fold marks the blocks reachable from the entry when edges that a
// constant condition rules out are removed.
func (b *builder) fold(g *cfg.CFG) map[*cfg.Block]bool {
	reach := map[*cfg.Block]bool{}
	stack := []*cfg.Block{g.Blocks[0]}
	for len(stack) > 0 {
		cb := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reach[cb] {
			continue
		}
		reach[cb] = true
		stack = append(stack, b.liveSuccs(cb)...)
	}
	return reach
}

// liveSuccs returns the successors of a block that a constant condition
// does not rule out. In a conditional block the last node is the
// condition, Succs[0] the true branch and Succs[1] the false one.
func (b *builder) liveSuccs(cb *cfg.Block) []*cfg.Block {
	if len(cb.Succs) != 2 || len(cb.Nodes) == 0 {
		return cb.Succs
	}
	cond, ok := cb.Nodes[len(cb.Nodes)-1].(ast.Expr)
	if !ok || b.tagged[cond] {
		return cb.Succs
	}
	v, known := b.constBool(cond)
	switch {
	case !known:
		return cb.Succs
	case v:
		return cb.Succs[:1]
	default:
		return cb.Succs[1:]
	}
}

// constBool folds a condition. Beyond the type checker's constants it
// knows that `false && x` is false and `true || x` is true whatever x is,
// since the CFG keeps such a condition whole.
func (b *builder) constBool(e ast.Expr) (value, known bool) {
	if tv, ok := b.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			v, ok := b.constBool(e.X)
			return !v, ok
		}
	case *ast.BinaryExpr:
		x, xok := b.constBool(e.X)
		y, yok := b.constBool(e.Y)
		switch e.Op {
		case token.LAND:
			if (xok && !x) || (yok && !y) {
				return false, true
			}
		case token.LOR:
			if (xok && x) || (yok && y) {
				return true, true
			}
		}
	}
	return false, false
}

// ctx is what holds for the expression being visited.
type ctx struct {
	cond     bool // right operand of && or ||
	deferred bool // the call of a defer statement
}

// visit records the effects of n, in evaluation order.
func (b *builder) visit(n ast.Node, s *Step, c ctx) {
	switch n := n.(type) {
	case nil:
	case *ast.FuncLit:
		if b.isBound(n) {
			b.boundIn[n] = true
			return
		}
		b.dead(n.Body, deadNeverRun, true)
	case *ast.GoStmt:
		b.visitFun(n.Call, s, c, false)
		for _, a := range n.Call.Args {
			b.visit(a, s, c)
		}
		b.dead(n.Call.Fun, deadGo, true)
		b.occ(n.Call, calleeOf(b.info, n.Call), deadGo, true)
	case *ast.DeferStmt:
		b.call(n.Call, s, ctx{cond: c.cond, deferred: true})
	case *ast.CallExpr:
		b.call(n, s, ctx{cond: c.cond})
	case *ast.BinaryExpr:
		b.visit(n.X, s, c)
		if n.Op == token.LAND || n.Op == token.LOR {
			b.visit(n.Y, s, ctx{cond: true})
		} else {
			b.visit(n.Y, s, c)
		}
	case *ast.SelectorExpr:
		b.visit(n.X, s, c)
		if fn, ok := b.info.Uses[n.Sel].(*types.Func); ok && !b.in.called[n] {
			b.occ(n, fn.Origin(), deadValue, true)
		}
	case *ast.Ident:
		if fn, ok := b.info.Uses[n].(*types.Func); ok && !b.in.called[n] {
			b.occ(n, fn.Origin(), deadValue, true)
		}
	default:
		ast.Inspect(n, func(m ast.Node) bool {
			if m == n {
				return true
			}
			b.visit(m, s, c)
			return false
		})
	}
}

// call records a call: its function value's operands, its arguments, then
// the call itself.
func (b *builder) call(call *ast.CallExpr, s *Step, c ctx) {
	lit := b.visitFun(call, s, ctx{cond: c.cond}, true)
	callee := calleeOf(b.info, call)
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && callee == nil {
		if v, ok := b.info.Uses[id].(*types.Var); ok {
			callee = b.in.values[v] // r := e.retain; r()
		}
	}
	argc := ctx{cond: c.cond}
	for i, arg := range call.Args {
		al, ok := ast.Unparen(arg).(*ast.FuncLit)
		if !ok || callee == nil {
			b.visit(arg, s, argc)
			continue
		}
		if b.in.runsParam(callee, i) {
			s.Effects = append(s.Effects, &Effect{Call: call, Lit: b.in.bodyLocked(al, al.Body), Cond: c.cond, Deferred: c.deferred})
			continue
		}
		b.dead(al.Body, fmt.Sprintf("in a function literal passed to %s, which cannot be shown to call it", callee.Name()), true)
		b.body.Dead[len(b.body.Dead)-1].Passed = true
	}
	if lit != nil {
		s.Effects = append(s.Effects, &Effect{Call: call, Lit: b.in.bodyLocked(lit, lit.Body), Cond: c.cond, Deferred: c.deferred})
		return
	}
	s.Effects = append(s.Effects, &Effect{Call: call, Callee: callee, Cond: c.cond, Deferred: c.deferred})
	b.occ(call, callee, "", false)
}

// visitFun visits the operands of a call's function expression and
// returns the literal the call runs, if it runs one. ran says whether the
// call happens now (false for a go statement).
func (b *builder) visitFun(call *ast.CallExpr, s *Step, c ctx, ran bool) *ast.FuncLit {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr: // an explicit instantiation: F[T](x)
		fun = ast.Unparen(f.X)
		b.visit(f.Index, s, c)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
		for _, ix := range f.Indices {
			b.visit(ix, s, c)
		}
	}
	switch f := fun.(type) {
	case *ast.FuncLit:
		if !ran {
			return nil // a go statement: the caller records the body as dead
		}
		return f
	case *ast.SelectorExpr:
		if _, isFunc := b.info.Uses[f.Sel].(*types.Func); isFunc {
			b.visit(f.X, s, c)
			return nil
		}
	case *ast.Ident:
		if v, ok := b.info.Uses[f].(*types.Var); ok && ran {
			if lit := b.in.bound[v]; lit != nil {
				return lit
			}
		}
		if _, isFunc := b.info.Uses[f].(*types.Func); isFunc {
			return nil
		}
	}
	b.visit(fun, s, c)
	return nil
}

// isBound reports whether lit is the value of a variable that is bound to
// it once and only called.
func (b *builder) isBound(lit *ast.FuncLit) bool {
	for _, l := range b.in.bound {
		if l == lit {
			return true
		}
	}
	return false
}

// dead records every call under n as not live, with a reason.
func (b *builder) dead(n ast.Node, reason string, maybe bool) {
	b.body.Dead = append(b.body.Dead, &DeadCode{Node: n, Liveness: core.Liveness{Dead: reason, Maybe: maybe}})
	ast.Inspect(n, func(m ast.Node) bool {
		if call, ok := m.(*ast.CallExpr); ok {
			b.occ(call, calleeOf(b.info, call), reason, maybe)
		}
		return true
	})
}

func (b *builder) occ(n ast.Node, callee *types.Func, dead string, maybe bool) {
	b.record(&Occurrence{Node: n, Callee: callee, Liveness: core.Liveness{Dead: dead, Maybe: maybe}})
}

func (b *builder) record(o *Occurrence) {
	if b.seen[o.Node] {
		return
	}
	b.seen[o.Node] = true
	b.body.Calls = append(b.body.Calls, o)
}

// cfg returns ctrlflow's graph of the body being built.
func (b *builder) cfg() *cfg.CFG {
	switch n := b.body.Node.(type) {
	case *ast.FuncDecl:
		return b.in.cfgs.FuncDecl(n)
	case *ast.FuncLit:
		return b.in.cfgs.FuncLit(n)
	}
	panic(fmt.Sprintf("live: no control-flow graph for a %T", b.body.Node))
}
