package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/astutil"
)

// Names the mutants declare. The guardlint prefix keeps them apart from
// the package's own names.
const (
	flagConst = "guardlintDebug"   // a constant false flag
	CondVar   = "guardlintCond"    // a condition known only at run time
	movedFunc = "guardlintMoved"   // where a moved statement goes
	otherMu   = "guardlintOtherMu" // another lock
	resultVar = "guardlintR"       // results evaluated before a return
)

// StmtSite is a statement that makes a guarded call.
type StmtSite struct {
	Decl *ast.FuncDecl // the target function
	Call *ast.CallExpr
	Stmt ast.Stmt
}

// StmtMutant builds one revert of a statement site. suffix tells apart
// the mutants of several sites in one function. A statement that is the
// initialiser of an if, switch or for is hoisted out of the header first
// (see standaloneOf).
func (p *Package) StmtMutant(inv *invariants.Invariant, s StmtSite, op, suffix string) *mutant.Mutant {
	e := NewEdits(p)
	if op == mutant.OpWrongRecv {
		// The statement stays where it is; only the receiver changes.
		return NewMutant(inv, p, s.Decl, op+suffix, e, p.wrongReceiver(e, s.Call))
	}
	st, void := p.standaloneOf(s)
	if void != "" {
		return NewMutant(inv, p, s.Decl, op+suffix, nil, void)
	}
	text, ind := st.text, st.indent
	switch op {
	case mutant.OpDelete:
		st.put(e, "")
	case mutant.OpLineComment:
		st.put(e, lineComment(text))
	case mutant.OpBlockComment:
		if strings.Contains(text, "*/") {
			void = "the statement contains */"
			break
		}
		st.put(e, "/* "+text+" */")
	case mutant.OpIfFalse:
		st.put(e, "if false { "+text+" }")
	case mutant.OpConstFalse:
		st.put(e, "if "+flagConst+" { "+text+" }")
		e.Decl("const %s = false", flagConst)
	case mutant.OpAfterReturn:
		st.put(e, p.terminate(s.Decl, s.Stmt)+"\n"+ind+text)
	case mutant.OpMoved:
		void = p.move(e, s, st)
	case mutant.OpClosure:
		st.put(e, "_ = func() { "+text+" }")
	case mutant.OpString:
		st.put(e, "_ = "+strconv.Quote(text))
	case mutant.OpOneBranch:
		st.put(e, "if "+CondVar+" { "+text+" }")
		e.Decl("var %s bool", CondVar)
	default:
		void = "unknown revert " + op
	}
	return NewMutant(inv, p, s.Decl, op+suffix, e, void)
}

// terminate returns a statement that ends the function around stmt:
// return when it has no results or named ones, else a panic, which needs
// no zero values.
func (p *Package) terminate(d *ast.FuncDecl, stmt ast.Stmt) string {
	ft := d.Type
	path, _ := astutil.PathEnclosingInterval(p.FileOf[d], stmt.Pos(), stmt.End())
	for _, n := range path {
		if lit, ok := n.(*ast.FuncLit); ok {
			ft = lit.Type
			break
		}
	}
	if ft.Results == nil || len(ft.Results.List) == 0 || len(ft.Results.List[0].Names) > 0 {
		return "return"
	}
	return `panic("reverted")`
}

// move takes the statement out of the target and into a new function at
// the end of the file that nobody calls. The locals the statement uses
// become the new function's parameters, so that it compiles.
func (p *Package) move(e *Edits, s StmtSite, st *standalone) string {
	f := p.FileOf[s.Decl]
	qual, qerr := p.fileQualifier(f)
	var params []string
	seen := map[*types.Var]bool{}
	ast.Inspect(s.Stmt, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := p.Pkg.TypesInfo.Uses[id].(*types.Var)
		if !ok || seen[v] || v.Parent() == nil || v.Parent() == p.Pkg.Types.Scope() {
			return true
		}
		inFunc := s.Decl.Pos() <= v.Pos() && v.Pos() < s.Decl.End()
		inStmt := s.Stmt.Pos() <= v.Pos() && v.Pos() < s.Stmt.End()
		if inFunc && !inStmt {
			seen[v] = true
			params = append(params, v.Name()+" "+types.TypeString(v.Type(), qual))
		}
		return true
	})
	if *qerr != nil {
		return (*qerr).Error()
	}
	sort.Strings(params)
	st.put(e, "")
	end := p.Fset.File(f.Pos())
	e.Replace(end.Pos(end.Size()), end.Pos(end.Size()),
		fmt.Sprintf("\nfunc %s(%s) {\n\t%s\n}\n", movedFunc, strings.Join(params, ", "), st.moved))
	return ""
}

// fileQualifier writes type names as the file spells them; a package
// the file does not import cannot be spelled, which the returned error
// records.
func (p *Package) fileQualifier(f *ast.File) (types.Qualifier, *error) {
	names := map[string]string{}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if spec.Name != nil {
			names[path] = spec.Name.Name
		} else if imp := p.Pkg.Imports[path]; imp != nil {
			names[path] = imp.Name
		}
	}
	var err error
	return func(pkg *types.Package) string {
		if pkg == p.Pkg.Types {
			return ""
		}
		name, ok := names[pkg.Path()]
		if !ok && err == nil {
			err = fmt.Errorf("the file does not import %s", pkg.Path())
		}
		return name
	}, &err
}

// wrongReceiver calls the same method on a value of another type of the
// package that has a method of that name and the same parameters: the
// text is the same, the method is not.
func (p *Package) wrongReceiver(e *Edits, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "the call is not a method call"
	}
	selection := p.Pkg.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return "the call is not a method call"
	}
	method := selection.Obj().(*types.Func)
	params := method.Signature().Params()
	recv := NamedOf(selection.Recv())
	sc := p.Pkg.Types.Scope()
	for _, name := range sc.Names() { // sorted
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named == recv || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, p.Pkg.Types, sel.Sel.Name)
		other, ok := obj.(*types.Func)
		if !ok || !types.Identical(other.Signature().Params(), params) {
			continue
		}
		e.ReplaceNode(sel.X, "new("+name+")")
		return ""
	}
	return fmt.Sprintf("no other type of package %s has a method %s with these parameters", p.Pkg.Name, sel.Sel.Name)
}

// NamedOf returns the named type of t or *t, or nil.
func NamedOf(t types.Type) *types.Named {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// mustParseType parses a type as types.TypeString writes it; a type that
// does not parse yields an empty expression, which has no selectors.
func mustParseType(s string) ast.Node {
	x, err := parser.ParseExpr(s)
	if err != nil {
		return &ast.BadExpr{}
	}
	return x
}

// SiteMutants applies ops to the statement of every call site.
func (p *Package) SiteMutants(inv *invariants.Invariant, d *ast.FuncDecl, calls []*ast.CallExpr, ops []string) []*mutant.Mutant {
	var out []*mutant.Mutant
	for _, c := range calls {
		stmt, _ := p.StmtOf(d, c)
		suffix := ""
		if len(calls) > 1 {
			suffix = fmt.Sprintf("@%d", p.Fset.Position(c.Pos()).Line)
		}
		for _, op := range ops {
			if stmt == nil {
				out = append(out, NewMutant(inv, p, d, op+suffix, nil, "the call is not inside a statement"))
				continue
			}
			out = append(out, p.StmtMutant(inv, StmtSite{Decl: d, Call: c, Stmt: stmt}, op, suffix))
		}
	}
	return out
}
