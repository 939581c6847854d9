package hold

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/locks"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/analyzers/live"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a hold analyzer reading invariants from the given guardconf
// analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(invariants.KindHold, docs.Extract(doc, "hold"), conf, run)
}

// checker checks one hold invariant.
type checker struct {
	r       *rule.Rule
	res     *locks.Resolver
	inv     *invariants.Invariant
	lock    *types.Var
	owner   types.Type // for a field lock, the struct type declaring it
	helpers []*types.Func
}

func run(r *rule.Rule) {
	res := &locks.Resolver{Info: r.Pass.TypesInfo, Live: r.Live}
	for _, inv := range r.Invariants() {
		lock, err := r.Var(inv.Hold.Lock)
		if err != nil {
			r.Unverifiable(inv, inv.Hold.Lock.Pos, "lock %s does not resolve from package %s: %v", inv.Hold.Lock.Short(), r.Pass.Pkg.Path(), err)
			continue
		}
		c := &checker{r: r, res: res, inv: inv, lock: lock}
		if lock.IsField() {
			owner, err := r.Owner(inv.Hold.Lock)
			if err != nil {
				r.Unverifiable(inv, inv.Hold.Lock.Pos, "lock %s does not resolve from package %s: %v", inv.Hold.Lock.Short(), r.Pass.Pkg.Path(), err)
				continue
			}
			c.owner = owner.Type()
		}
		helpers, ok := r.Funcs(inv, "helper", inv.Hold.Via)
		if !ok {
			continue
		}
		c.helpers = helpers
		if !c.checkHelpers() {
			continue
		}
		for _, t := range r.Targets(inv) {
			c.check(t)
		}
	}
}

// effect is what an effect does to the lock.
type effect int

const (
	none effect = iota
	acquire
	release
	wrongMode // takes the lock in the mode the invariant does not ask for
)

func (c *checker) classify(e *live.Effect, recv types.Object) effect {
	if e.Callee != nil {
		for _, h := range c.helpers {
			if h == e.Callee {
				return acquire
			}
		}
	}
	if e.Call == nil {
		return none
	}
	op, ref := c.res.Op(e.Call)
	if op == locks.None || ref.Obj != c.lock {
		return none
	}
	if c.owner != nil && recv != nil && ref.Base != recv && locks.SameNamed(recv.Type(), c.owner) {
		return none // the same field of another value: another lock
	}
	shared := c.inv.Hold.Mode == invariants.Shared
	switch op {
	case locks.Lock:
		if shared {
			return wrongMode
		}
		return acquire
	case locks.RLock:
		if !shared {
			return wrongMode
		}
		return acquire
	}
	return release
}

// analysis tracks "the lock is held" on every path.
func (c *checker) analysis(recv types.Object) *live.Analysis[bool] {
	return &live.Analysis[bool]{
		Entry: false,
		Meet:  func(a, b bool) bool { return a && b },
		Effect: func(held bool, e *live.Effect) bool {
			if e.Deferred {
				return held
			}
			switch c.classify(e, recv) {
			case acquire:
				if e.Cond {
					return held
				}
				return true
			case release:
				return false
			}
			return held
		},
	}
}

func (c *checker) checkHelpers() bool {
	ok := true
	for i, h := range c.helpers {
		decl := c.r.Live.Decl(h)
		if decl == nil {
			c.r.Unverifiable(c.inv, c.inv.Hold.Via[i].Pos, "helper %s must be declared with a body in package %s so that its locking can be checked", rule.FuncName(h), c.r.Pass.Pkg.Path())
			ok = false
			continue
		}
		helpers := c.helpers
		c.helpers = nil // a helper must take the lock itself
		f := c.analysis(locks.Receiver(c.r.Pass.TypesInfo, decl)).Run(c.r.Live.Func(decl))
		c.helpers = helpers
		if !live.HoldsAtEveryReturn(f) {
			c.r.Unverifiable(c.inv, c.inv.Hold.Via[i].Pos, "helper %s does not acquire %s on every path", rule.FuncName(h), c.inv.Hold.Lock.Short())
			ok = false
		}
	}
	return ok
}

func (c *checker) check(t rule.Target) {
	recv := locks.Receiver(c.r.Pass.TypesInfo, t.Decl)
	var bad ast.Node
	note := func(n ast.Node) {
		if bad == nil || n.Pos() < bad.Pos() {
			bad = n
		}
	}
	acquired, other := false, false
	f := c.analysis(recv).Visit(t.Body, live.Visitor[bool]{
		Step: func(held bool, s *live.Step) {
			if !held && c.isWork(s, recv) {
				note(s.Node)
			}
		},
		Effect: func(_ bool, _ *live.Step, e *live.Effect) {
			if e.Deferred {
				return
			}
			switch c.classify(e, recv) {
			case acquire:
				acquired = true
			case wrongMode:
				other = true
			}
		},
	})
	for _, exit := range f.Exits {
		if !exit.State {
			note(exit.Return)
		}
	}
	if bad == nil {
		return
	}
	fn, lock, mode := rule.FuncName(t.Func), c.inv.Hold.Lock.Short(), c.inv.Hold.Mode
	rng := analysis.Range(bad)
	if _, ok := bad.(*ast.ReturnStmt); ok {
		rng = rule.At(bad.Pos()) // may be the synthetic return at the closing brace
	}
	switch {
	case other:
		c.r.Report(c.inv, rng, "%s is not held in %s mode here; %s must hold it from before its first statement that does work to every return, and takes it in the other mode", lock, mode, fn)
	case !acquired:
		c.r.Report(c.inv, rng, "%s must hold %s (%s) from before its first statement that does work to every return, and never acquires it", fn, lock, mode)
	default:
		c.r.Report(c.inv, rng, "%s is not held here; %s must hold it (%s) from before its first statement that does work to every return", lock, fn, mode)
	}
}

// isWork reports whether a step does work that the lock must cover.
func (c *checker) isWork(s *live.Step, recv types.Object) bool {
	switch n := s.Node.(type) {
	case *ast.EmptyStmt:
		return false
	case *ast.DeferStmt:
		for _, e := range s.Effects {
			if !e.Deferred {
				return true
			}
		}
		return false
	case *ast.ExprStmt:
		for _, e := range s.Effects {
			if e.Lit != nil && !e.Deferred {
				continue // a literal running here: its own steps are checked
			}
			if k := c.classify(e, recv); k != acquire && k != release {
				return true
			}
		}
		return len(s.Effects) == 0
	case ast.Expr: // a condition: a constant one does no work
		return !c.inert([]ast.Expr{n})
	case *ast.ValueSpec:
		return !c.inert(n.Values)
	case *ast.AssignStmt:
		return n.Tok != token.DEFINE || !c.inert(n.Rhs)
	}
	return true
}

// inert reports whether values are constants or the lock's address:
// computing them touches nothing the lock protects.
func (c *checker) inert(values []ast.Expr) bool {
	for _, v := range values {
		if tv, ok := c.r.Pass.TypesInfo.Types[v]; ok && tv.Value != nil {
			continue
		}
		if u, ok := ast.Unparen(v).(*ast.UnaryExpr); ok && u.Op == token.AND && c.res.Ref(u.X).Obj == c.lock {
			continue
		}
		return false
	}
	return true
}
