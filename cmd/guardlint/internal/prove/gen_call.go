package prove

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/invariants"
)

// callOps are the reverts of a required call.
var callOps = []string{opDelete, opLineComment, opBlockComment, opIfFalse, opConstFalse, opAfterReturn, opMoved, opWrongRecv, opClosure, opString}

// callMutants reverts every live call of the required function (or of a
// helper under via) in every target of the package. With every_path, the
// call kept on one branch only is a revert too.
func (p *goPackage) callMutants(inv *invariants.Invariant) []*Mutant {
	to, err := p.scope.Func(inv.Call.To)
	if err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	fns := append([]*types.Func{to}, resolveFuncs(p.scope, inv.Call.Via)...)
	ops := callOps
	if inv.Call.EveryPath {
		ops = append(ops[:len(ops):len(ops)], opOneBranch)
	}
	var out []*Mutant
	for _, d := range p.targets(inv) {
		calls := p.liveCalls(d, fns)
		if len(calls) == 0 {
			out = append(out, newMutant(inv, p, d, "locate", nil, fmt.Sprintf("no live call of %s in %s", inv.Call.To.Short(), keyOf(d))))
			continue
		}
		out = append(out, p.siteMutants(inv, d, calls, ops)...)
	}
	return out
}

// siteMutants applies ops to the statement of every call site.
func (p *goPackage) siteMutants(inv *invariants.Invariant, d *ast.FuncDecl, calls []*ast.CallExpr, ops []string) []*Mutant {
	var out []*Mutant
	for _, c := range calls {
		stmt, _ := p.stmtOf(d, c)
		suffix := ""
		if len(calls) > 1 {
			suffix = fmt.Sprintf("@%d", p.fset.Position(c.Pos()).Line)
		}
		for _, op := range ops {
			if stmt == nil {
				out = append(out, newMutant(inv, p, d, op+suffix, nil, "the call is not inside a statement"))
				continue
			}
			out = append(out, p.stmtMutant(inv, stmtSite{decl: d, call: c, stmt: stmt}, op, suffix))
		}
	}
	return out
}

// targets returns the declarations of the invariant's functions that
// live in this package and resolve.
func (p *goPackage) targets(inv *invariants.Invariant) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, n := range inv.Functions {
		if n.Pkg != p.pkg.PkgPath {
			continue
		}
		if d, err := p.target(n); err == nil {
			out = append(out, d)
		}
	}
	return out
}
