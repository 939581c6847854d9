package locks

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/live"
	"github.com/guardlint/guardlint/invariants"
)

// Change is what one effect does to a followed lock.
type Change int

// Changes.
const (
	Keeps     Change = iota
	Acquires         // takes the lock in the followed mode
	Releases         // gives it up
	OtherMode        // takes it in the mode the rule does not ask for
)

// Followed is a lock a rule follows through a body: the variable or field,
// the mode the rule asks for, and the helpers whose call takes it.
type Followed struct {
	Res  *Resolver
	Lock *types.Var
	// Owner is, for a field lock, the struct type declaring the field.
	Owner   types.Type
	Mode    invariants.LockMode
	Helpers []*types.Func
}

// Change classifies an effect. recv is the receiver of the method being
// analysed, or nil: for a field lock in a method of its type, the same
// field of another value is another lock.
func (f *Followed) Change(e *live.Effect, recv types.Object) Change {
	if e.Callee != nil {
		for _, h := range f.Helpers {
			if h == e.Callee {
				return Acquires
			}
		}
	}
	if e.Call == nil {
		return Keeps
	}
	op, ref := f.Res.Op(e.Call)
	if op == None || ref.Obj != f.Lock {
		return Keeps
	}
	if f.Owner != nil && recv != nil && ref.Base != recv && SameNamed(recv.Type(), f.Owner) {
		return Keeps
	}
	shared := f.Mode == invariants.Shared
	switch op {
	case Lock:
		if shared {
			return OtherMode
		}
		return Acquires
	case RLock:
		if !shared {
			return OtherMode
		}
		return Acquires
	}
	return Releases
}

// Step describes a live step for core.DoesWork: the Go front end's half
// of the one definition of work.
func (f *Followed) Step(s *live.Step, recv types.Object) core.Step {
	switch n := s.Node.(type) {
	case *ast.EmptyStmt:
		return core.Step{Kind: core.Empty}
	case *ast.DeferStmt:
		st := core.Step{Kind: core.Defer}
		for _, e := range s.Effects {
			if !e.Deferred {
				st.Values = append(st.Values, core.Computed) // an argument computed now calls something
			}
		}
		return st
	case *ast.ExprStmt:
		kind := core.Other
		for _, e := range s.Effects {
			switch {
			case e.Lit != nil && !e.Deferred:
				if kind == core.Other {
					kind = core.Inline
				}
			case f.Change(e, recv) == Acquires || f.Change(e, recv) == Releases:
				kind = core.LockOp
			default:
				return core.Step{Kind: core.Other}
			}
		}
		return core.Step{Kind: kind}
	case ast.Expr:
		return core.Step{Kind: core.Condition, Values: f.values([]ast.Expr{n})}
	case *ast.ValueSpec:
		return core.Step{Kind: core.Declaration, Values: f.values(n.Values)}
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			return core.Step{Kind: core.Declaration, Values: f.values(n.Rhs)}
		}
	}
	return core.Step{Kind: core.Other}
}

// values describes what computing each expression involves.
func (f *Followed) values(es []ast.Expr) []core.Value {
	out := make([]core.Value, len(es))
	for i, v := range es {
		switch {
		case f.Res.Info.Types[v].Value != nil:
			out[i] = core.Constant
		case f.isLockAddress(v):
			out[i] = core.LockAddress
		default:
			out[i] = core.Computed
		}
	}
	return out
}

// isLockAddress reports whether e is &lock.
func (f *Followed) isLockAddress(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.AND && f.Res.Ref(u.X).Obj == f.Lock
}

// DoesWork reports whether a live step does work the lock must cover.
func (f *Followed) DoesWork(s *live.Step, recv types.Object) bool {
	return core.DoesWork(f.Step(s, recv))
}
