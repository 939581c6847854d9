package owns

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns an owns analyzer reading invariants from the given guardconf
// analyzer.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "owns"), conf, run)
}

func run(r *rule.Rule) {
	for _, inv := range r.Invariants() {
		home := r.Pass.Pkg.Path() == inv.Field.Pkg
		field, err := r.Var(*inv.Field)
		if err == nil && !field.IsField() {
			err = errNotField
		}
		if err != nil {
			if home {
				r.Unverifiable(inv, inv.Field.Pos, "field %s does not resolve in package %s: %v", inv.Field.Short(), inv.Field.Pkg, err)
			}
			continue
		}
		if !home && !field.Exported() {
			continue // no other package can write it
		}
		var owners []*types.Func
		resolved := true
		for _, n := range ruleOf(inv).Writers {
			fn, err := r.Func(n)
			switch {
			case err == nil:
				owners = append(owners, fn)
			case home:
				r.Unverifiable(inv, n.Pos, "writer %s does not resolve: %v", n.Short(), err)
				resolved = false
			}
		}
		if !resolved {
			continue
		}
		check(r, inv, field, owners)
	}
}

type notField struct{}

func (notField) Error() string { return "it is not a field" }

var errNotField = notField{}

// check reports every write of field outside the owners that runs or
// might run.
func check(r *rule.Rule, inv *invariants.Invariant, field *types.Var, owners []*types.Func) {
	info := r.Pass.TypesInfo
	names := make([]string, len(owners))
	for i, o := range owners {
		names[i] = rule.FuncName(o)
	}
	var ws []write[rule.Site]
	for c := range r.Inspect.Root().Preorder(writeNodes...) {
		at := writesOf(info, c.Node(), field)
		if len(at) == 0 {
			continue
		}
		var decl *ast.FuncDecl
		for d := range c.Enclosing((*ast.FuncDecl)(nil)) {
			decl = d.Node().(*ast.FuncDecl)
			break
		}
		by := "package initialization"
		if decl != nil {
			writer, _ := info.Defs[decl.Name].(*types.Func)
			if writer != nil && slices.Contains(owners, writer.Origin()) {
				continue
			}
			by = rule.FuncName(writer)
		}
		for _, n := range at {
			w := write[rule.Site]{Occurrence: rule.Occurrence{At: n}, by: by}
			if decl != nil && decl.Body != nil {
				if dc := r.Live.Func(decl).DeadAt(n.Pos()); dc != nil {
					w.Liveness = dc.Liveness
				}
			}
			ws = append(ws, w)
		}
	}
	verdict(r.For(inv), inv.Field.Short(), names, ws)
}

// writeNodes are the nodes that can write a field.
var writeNodes = []ast.Node{(*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.RangeStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CompositeLit)(nil)}

// writesOf returns the expressions by which node n itself writes field:
// an assignment's or increment's operand, a range's key or value, the
// field's address taken, a composite literal's element.
func writesOf(info *types.Info, n ast.Node, field *types.Var) []ast.Node {
	var out []ast.Node
	is := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := info.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && isField(s.Obj(), field)
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, lhs := range n.Lhs {
			if is(lhs) {
				out = append(out, lhs)
			}
		}
	case *ast.IncDecStmt:
		if is(n.X) {
			out = append(out, n.X)
		}
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil && is(e) {
					out = append(out, e)
				}
			}
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND && is(n.X) {
			out = append(out, n)
		}
	case *ast.CompositeLit:
		st, ok := types.Unalias(locks.Deref(info.TypeOf(n))).Underlying().(*types.Struct)
		if !ok {
			break
		}
		for i, elt := range n.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && isField(info.Uses[id], field) {
					out = append(out, kv)
				}
			} else if i < st.NumFields() && isField(st.Field(i), field) {
				out = append(out, elt)
			}
		}
	}
	return out
}

// isField reports whether obj is field. A field selected through an
// instance of a generic type (m.m in a method of Map[K, V]) is a copy
// with the declared field as its origin.
func isField(obj types.Object, field *types.Var) bool {
	v, ok := obj.(*types.Var)
	return ok && v.Origin() == field
}
