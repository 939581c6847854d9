package prove

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

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
var orderOps = []string{opDelete, opLineComment, opBlockComment, opIfFalse, opConstFalse, opMoved, opClosure, opString, opOneBranch, opDeferred, opSwapped}

// orderMutants reverts the first live call of first in every target
// that calls then after it.
func (p *goPackage) orderMutants(inv *invariants.Invariant) []*Mutant {
	first, err1 := p.scope.Func(inv.Order.First)
	then, err2 := p.scope.Func(inv.Order.Then)
	if err1 != nil || err2 != nil {
		return nil // unverifiable: the baseline run reports it
	}
	var out []*Mutant
	for _, d := range p.targets(inv) {
		firsts := p.liveCalls(d, []*types.Func{first})
		thens := p.liveCalls(d, []*types.Func{then})
		if len(firsts) == 0 || len(thens) == 0 {
			out = append(out, newMutant(inv, p, d, "locate", nil, fmt.Sprintf("no live call of %s followed by %s in %s", inv.Order.First.Short(), inv.Order.Then.Short(), keyOf(d))))
			continue
		}
		for _, c := range firsts {
			stmt, _ := p.stmtOf(d, c)
			suffix := ""
			if len(firsts) > 1 {
				suffix = fmt.Sprintf("@%d", p.fset.Position(c.Pos()).Line)
			}
			for _, op := range orderOps {
				var m *Mutant
				switch {
				case stmt == nil:
					m = newMutant(inv, p, d, op+suffix, nil, "the call is not inside a statement")
				case op == opDeferred || op == opSwapped:
					m = p.orderMutant(inv, d, c, stmt, thens, op, suffix)
				default:
					m = p.stmtMutant(inv, stmtSite{decl: d, call: c, stmt: stmt}, op, suffix)
				}
				m.Op = "first-" + m.Op
				m.Name = strings.Replace(m.Name, "."+op, ".first-"+op, 1)
				out = append(out, m)
			}
		}
	}
	return out
}

// orderMutant builds the reverts that only an order has.
func (p *goPackage) orderMutant(inv *invariants.Invariant, d *ast.FuncDecl, call *ast.CallExpr, stmt ast.Stmt, thens []*ast.CallExpr, op, suffix string) *Mutant {
	e := newEdits(p)
	void := ""
	switch op {
	case opDeferred:
		if es, ok := stmt.(*ast.ExprStmt); !ok || ast.Unparen(es.X) != call {
			void = "the call is not a call statement"
			break
		}
		e.replaceNode(stmt, "defer "+p.text(stmt))
	case opSwapped:
		var next ast.Stmt
		_, parent := p.stmtOf(d, call)
		for _, t := range thens {
			s, tp := p.stmtOf(d, t)
			if s != nil && s.Pos() > stmt.End() && tp == parent {
				next = s
				break
			}
		}
		if next == nil {
			void = "no statement calling " + inv.Order.Then.Short() + " after it in the same block"
			break
		}
		// The first call goes right after the statement that calls then;
		// a return is split so that its results, then among them, are
		// computed before the first call runs.
		e.replaceNode(stmt, "")
		void = p.placeAfter(e, d, next, p.text(stmt), p.indent(next.Pos()))
	}
	return newMutant(inv, p, d, op+suffix, e, void)
}
