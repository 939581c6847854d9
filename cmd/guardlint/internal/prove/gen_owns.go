package prove

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"

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
func (p *goPackage) ownsMutants(inv *invariants.Invariant) []*Mutant {
	if inv.Field.Pkg != p.pkg.PkgPath {
		return nil
	}
	field, err := p.scope.Var(*inv.Field)
	if err != nil || !field.IsField() {
		return nil // unverifiable: the baseline run reports it
	}
	owner := p.pkg.Types.Scope().Lookup(inv.Field.Ident)
	writers := resolveFuncs(p.scope, inv.Owns.Writers)
	host := p.ownsHost(owner, writers)
	if host == nil {
		return []*Mutant{{Invariant: inv, Target: inv.Field.Short(), Op: "locate", Name: unsafeName.ReplaceAllString(inv.ID+".locate", "_"),
			Void: fmt.Sprintf("no method of %s outside the writers has a named receiver", inv.Field.Ident)}}
	}
	var out []*Mutant
	for _, op := range ownsOps {
		out = append(out, p.ownsMutant(inv, host, field, writers, op))
	}
	return out
}

// ownsHost picks the non-owner method that receives the write.
func (p *goPackage) ownsHost(owner types.Object, writers []*types.Func) *ast.FuncDecl {
	var hosts []*ast.FuncDecl
	for fn, d := range p.decls {
		if containsFunc(writers, fn) || d.Recv == nil || len(d.Recv.List[0].Names) == 0 || d.Recv.List[0].Names[0].Name == "_" {
			continue
		}
		if recv := namedOf(fn.Signature().Recv().Type()); recv != nil && recv.Obj() == owner {
			hosts = append(hosts, d)
		}
	}
	sort.Slice(hosts, func(i, j int) bool { return hosts[i].Pos() < hosts[j].Pos() })
	for _, d := range hosts {
		if len(p.liveCalls(d, writers)) > 0 {
			return d
		}
	}
	if len(hosts) > 0 {
		return hosts[0]
	}
	return nil
}

// ownsMutant builds one write of the field in host.
func (p *goPackage) ownsMutant(inv *invariants.Invariant, host *ast.FuncDecl, field *types.Var, writers []*types.Func, op string) *Mutant {
	e := newEdits(p)
	x := host.Recv.List[0].Names[0].Name + "." + field.Name()
	at := host.Body.Lbrace + 1
	void := ""
	switch op {
	case opSelfAssign:
		e.insert(at, "\n\t"+x+" = "+x)
	case opMovedWrite:
		w, value := p.portableWrite(field, writers)
		if w == nil {
			void = "no write in a writer whose value can be moved"
			break
		}
		e.replaceNode(w, "")
		e.insert(at, "\n\t"+x+" = "+value)
	case opAddress:
		e.insert(at, "\n\t_ = &"+x)
	case opClosureW:
		e.insert(at, "\n\t_ = func() { "+x+" = "+x+" }")
	case opComposite:
		e.insert(at, "\n\t_ = "+inv.Field.Ident+"{"+field.Name()+": "+x+"}")
	}
	return newMutant(inv, p, host, op, e, void)
}

// portableWrite finds a statement of a writer that assigns the field a
// value that means the same anywhere (nil, a constant, a package-level
// name): the write that can move into another function unchanged.
func (p *goPackage) portableWrite(field *types.Var, writers []*types.Func) (*ast.AssignStmt, string) {
	for _, fn := range writers {
		d := p.decls[fn]
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
			if !ok || !sameVar(p.pkg.TypesInfo.Uses[sel.Sel], field) || !p.portable(as.Rhs[0]) {
				return true
			}
			found = as
			return false
		})
		if found != nil {
			return found, p.text(found.Rhs[0])
		}
	}
	return nil, ""
}

// portable reports whether an expression uses no local names.
func (p *goPackage) portable(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if obj := p.pkg.TypesInfo.Uses[id]; obj != nil && obj.Parent() != nil &&
				obj.Parent() != types.Universe && obj.Parent() != p.pkg.Types.Scope() {
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// sameVar reports whether obj is v, or a copy of it in an instance of a
// generic type.
func sameVar(obj types.Object, v *types.Var) bool {
	u, ok := obj.(*types.Var)
	return ok && u.Origin() == v
}
