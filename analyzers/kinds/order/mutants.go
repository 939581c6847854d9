package order

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Reverts of an order: the first call disabled in the ways a required
// call is, deferred (it then runs at the exit, after everything), or
// swapped with the call it must precede.
const (
	opDeferred = "deferred" // defer first(...)
	opSwapped  = "swapped"  // first(...) moved after then(...)
)

// orderOps are the reverts applied to the first call.
var orderOps = []string{mutant.OpDelete, mutant.OpLineComment, mutant.OpBlockComment, mutant.OpIfFalse, mutant.OpConstFalse, mutant.OpMoved, mutant.OpClosure, mutant.OpString, mutant.OpOneBranch, opDeferred, opSwapped}

// orderMutants reverts the first live call of first in every target
// that calls then after it.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	first, err1 := p.Scope.Func(r.First)
	then, err2 := p.Scope.Func(r.Then)
	if err1 != nil || err2 != nil {
		return nil // unverifiable: the baseline run reports it
	}
	var out []*mutant.Mutant
	for _, d := range p.Targets(inv) {
		firsts := p.LiveCalls(d, []*types.Func{first})
		thens := p.LiveCalls(d, []*types.Func{then})
		if len(firsts) == 0 || len(thens) == 0 {
			out = append(out, mutate.NewMutant(inv, p, d, "locate", nil, fmt.Sprintf("no live call of %s followed by %s in %s", r.First.Short(), r.Then.Short(), mutate.KeyOf(d))))
			continue
		}
		for _, c := range firsts {
			stmt, _ := p.StmtOf(d, c)
			suffix := ""
			if len(firsts) > 1 {
				suffix = fmt.Sprintf("@%d", p.Fset.Position(c.Pos()).Line)
			}
			for _, op := range orderOps {
				var m *mutant.Mutant
				switch {
				case stmt == nil:
					m = mutate.NewMutant(inv, p, d, op+suffix, nil, "the call is not inside a statement")
				case op == opDeferred || op == opSwapped:
					m = orderMutant(p, inv, d, c, stmt, thens, op, suffix)
				default:
					m = p.StmtMutant(inv, mutate.StmtSite{Decl: d, Call: c, Stmt: stmt}, op, suffix)
				}
				out = append(out, firstOf(m, op))
			}
		}
	}
	return out
}

// orderMutant builds the reverts that only an order has.
func orderMutant(p *mutate.Package, inv *invariants.Invariant, d *ast.FuncDecl, call *ast.CallExpr, stmt ast.Stmt, thens []*ast.CallExpr, op, suffix string) *mutant.Mutant {
	e := mutate.NewEdits(p)
	void := ""
	switch op {
	case opDeferred:
		if es, ok := stmt.(*ast.ExprStmt); !ok || ast.Unparen(es.X) != call {
			void = "the call is not a call statement"
			break
		}
		e.ReplaceNode(stmt, "defer "+p.Text(stmt))
	case opSwapped:
		var next ast.Stmt
		_, parent := p.StmtOf(d, call)
		for _, t := range thens {
			s, tp := p.StmtOf(d, t)
			if s != nil && s.Pos() > stmt.End() && tp == parent {
				next = s
				break
			}
		}
		if next == nil {
			void = "no statement calling " + ruleOf(inv).Then.Short() + " after it in the same block"
			break
		}
		// The first call goes right after the statement that calls then;
		// a return is split so that its results, then among them, are
		// computed before the first call runs.
		e.ReplaceNode(stmt, "")
		void = p.PlaceAfter(e, d, next, p.Text(stmt), p.Indent(next.Pos()))
	}
	return mutate.NewMutant(inv, p, d, op+suffix, e, void)
}

// firstOf names a revert of the first call as such: first-delete, in the
// matrix's column and in the mutant's name.
func firstOf(m *mutant.Mutant, op string) *mutant.Mutant {
	m.Op = "first-" + m.Op
	m.Name = strings.Replace(m.Name, "."+op, ".first-"+op, 1)
	return m
}

// Vacuity implements mutate.Rule: a target that no longer calls `then`
// does not hold, which the baseline run reports, so an order is never
// vacuous.
func (r *Rule) Vacuity(*mutate.Package, *invariants.Invariant) []string { return nil }
