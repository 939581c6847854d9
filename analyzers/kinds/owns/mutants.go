package owns

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Reverts of an owned field: a write outside its owners.
const (
	opSelfAssign = "self-assign"       // x.f = x.f in a non-owner
	opMovedWrite = "moved-write"       // an owner's write moved into a non-owner
	opAddress    = "address-taken"     // _ = &x.f in a non-owner
	opClosureW   = "closure-write"     // the write in a stored closure
	opComposite  = "composite-literal" // T{f: x.f} in a non-owner
)

// ownsOps are the reverts of an owned field.
var ownsOps = []string{opSelfAssign, opMovedWrite, opAddress, opClosureW, opComposite}

// ownsMutants writes the field in a method of its type that is not an
// owner. The method chosen is one that calls an owner when there is one:
// inlining the owner there (reset setting active = nil itself) is the
// revert the invariant exists for.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	if inv.Field.Pkg != p.Pkg.PkgPath {
		return nil
	}
	field, err := p.Scope.Var(*inv.Field)
	if err != nil || !field.IsField() {
		return nil // unverifiable: the baseline run reports it
	}
	owner := p.Pkg.Types.Scope().Lookup(inv.Field.Ident)
	writers := mutate.ResolveFuncs(p.Scope, r.Writers)
	host := ownsHost(p, owner, writers)
	if host == nil {
		return []*mutant.Mutant{mutant.VoidMutant(inv, inv.Field.Short(), "locate", fmt.Sprintf("no method of %s outside the writers has a named receiver", inv.Field.Ident))}
	}
	var out []*mutant.Mutant
	for _, op := range ownsOps {
		out = append(out, ownsMutant(p, inv, host, field, writers, op))
	}
	return out
}

// ownsHost picks the non-owner method that receives the write.
func ownsHost(p *mutate.Package, owner types.Object, writers []*types.Func) *ast.FuncDecl {
	var hosts []*ast.FuncDecl
	for _, d := range p.SortedDecls() {
		if d.Recv == nil || len(d.Recv.List[0].Names) == 0 || d.Recv.List[0].Names[0].Name == "_" {
			continue
		}
		fn, ok := p.Pkg.TypesInfo.Defs[d.Name].(*types.Func)
		if !ok || slices.Contains(writers, fn) {
			continue
		}
		if recv := mutate.NamedOf(fn.Signature().Recv().Type()); recv != nil && recv.Obj() == owner {
			hosts = append(hosts, d)
		}
	}
	for _, d := range hosts {
		if len(p.LiveCalls(d, writers)) > 0 {
			return d
		}
	}
	if len(hosts) > 0 {
		return hosts[0]
	}
	return nil
}

// ownsMutant builds one write of the field in host.
func ownsMutant(p *mutate.Package, inv *invariants.Invariant, host *ast.FuncDecl, field *types.Var, writers []*types.Func, op string) *mutant.Mutant {
	e := mutate.NewEdits(p)
	x := host.Recv.List[0].Names[0].Name + "." + field.Name()
	at := host.Body.Lbrace + 1
	void := ""
	switch op {
	case opSelfAssign:
		e.Insert(at, "\n\t"+x+" = "+x)
	case opMovedWrite:
		w, value := portableWrite(p, field, writers)
		if w == nil {
			void = "no write in a writer whose value can be moved"
			break
		}
		e.ReplaceNode(w, "")
		e.Insert(at, "\n\t"+x+" = "+value)
	case opAddress:
		e.Insert(at, "\n\t_ = &"+x)
	case opClosureW:
		e.Insert(at, "\n\t_ = func() { "+x+" = "+x+" }")
	case opComposite:
		e.Insert(at, "\n\t_ = "+inv.Field.Ident+"{"+field.Name()+": "+x+"}")
	}
	return mutate.NewMutant(inv, p, host, op, e, void)
}

// portableWrite finds a statement of a writer that assigns the field a
// value that means the same anywhere (nil, a constant, a package-level
// name): the write that can move into another function unchanged.
func portableWrite(p *mutate.Package, field *types.Var, writers []*types.Func) (*ast.AssignStmt, string) {
	for _, fn := range writers {
		d := p.Decls[fn]
		if d == nil {
			continue
		}
		var found *ast.AssignStmt
		ast.Inspect(d.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || found != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return found == nil
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok || !isField(p.Pkg.TypesInfo.Uses[sel.Sel], field) || !portable(p, as.Rhs[0]) {
				return true
			}
			found = as
			return false
		})
		if found != nil {
			return found, p.Text(found.Rhs[0])
		}
	}
	return nil, ""
}

// portable reports whether an expression uses no local names.
func portable(p *mutate.Package, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if obj := p.Pkg.TypesInfo.Uses[id]; obj != nil && obj.Parent() != nil &&
				obj.Parent() != types.Universe && obj.Parent() != p.Pkg.Types.Scope() {
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// Vacuity implements mutate.Rule: a field no code of its package uses.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	if inv.Field.Pkg != p.Pkg.PkgPath {
		return nil
	}
	return p.Vacuous(*inv.Field)
}
