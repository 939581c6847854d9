package prove

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/astutil"
)

// Reverts of a statement that holds a guarded call. Each takes the
// statement out of the code that runs in its own way; together they are
// the ways text-matching guards are known to be fooled.
const (
	opDelete       = "delete"           // the statement is gone
	opLineComment  = "line-comment"     // // before every line
	opBlockComment = "block-comment"    // /* ... */
	opIfFalse      = "if-false"         // if false { ... }
	opConstFalse   = "const-false"      // if debug { ... }, const debug = false
	opAfterReturn  = "after-return"     // a return (or panic) just before it
	opMoved        = "moved"            // moved into a new function nobody calls
	opWrongRecv    = "wrong-receiver"   // the same method called on another type
	opClosure      = "uncalled-closure" // _ = func() { ... }
	opString       = "string-literal"   // _ = "..."
	opOneBranch    = "one-branch"       // if cond { ... }, cond not constant
)

// Names the mutants declare. The guardlint prefix keeps them apart from
// the package's own names.
const (
	flagConst = "guardlintDebug"   // a constant false flag
	condVar   = "guardlintCond"    // a condition known only at run time
	movedFunc = "guardlintMoved"   // where a moved statement goes
	otherMu   = "guardlintOtherMu" // another lock
	resultVar = "guardlintR"       // results evaluated before a return
)

// stmtSite is a statement that makes a guarded call.
type stmtSite struct {
	decl *ast.FuncDecl // the target function
	call *ast.CallExpr
	stmt ast.Stmt
}

// stmtMutant builds one revert of a statement site. suffix tells apart
// the mutants of several sites in one function.
func (p *goPackage) stmtMutant(inv *invariants.Invariant, s stmtSite, op, suffix string) *Mutant {
	e := newEdits(p)
	text := p.text(s.stmt)
	ind := p.indent(s.stmt.Pos())
	void := ""
	switch op {
	case opDelete:
		e.replaceNode(s.stmt, "")
	case opLineComment:
		e.replaceNode(s.stmt, lineComment(text))
	case opBlockComment:
		if strings.Contains(text, "*/") {
			void = "the statement contains */"
			break
		}
		e.replaceNode(s.stmt, "/* "+text+" */")
	case opIfFalse:
		e.replaceNode(s.stmt, "if false { "+text+" }")
	case opConstFalse:
		e.replaceNode(s.stmt, "if "+flagConst+" { "+text+" }")
		e.decl("const %s = false", flagConst)
	case opAfterReturn:
		e.insert(s.stmt.Pos(), p.terminate(s.decl, s.stmt)+"\n"+ind)
	case opMoved:
		void = p.move(e, s)
	case opWrongRecv:
		void = p.wrongReceiver(e, s.call)
	case opClosure:
		e.replaceNode(s.stmt, "_ = func() { "+text+" }")
	case opString:
		e.replaceNode(s.stmt, "_ = "+strconv.Quote(text))
	case opOneBranch:
		e.replaceNode(s.stmt, "if "+condVar+" { "+text+" }")
		e.decl("var %s bool", condVar)
	default:
		void = "unknown revert " + op
	}
	return newMutant(inv, p, s.decl, op+suffix, e, void)
}

// terminate returns a statement that ends the function around stmt:
// return when it has no results or named ones, else a panic, which needs
// no zero values.
func (p *goPackage) terminate(d *ast.FuncDecl, stmt ast.Stmt) string {
	ft := d.Type
	path, _ := astutil.PathEnclosingInterval(p.fileOf[d], stmt.Pos(), stmt.End())
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
func (p *goPackage) move(e *edits, s stmtSite) string {
	f := p.fileOf[s.decl]
	qual, qerr := p.fileQualifier(f)
	var params []string
	seen := map[*types.Var]bool{}
	ast.Inspect(s.stmt, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := p.pkg.TypesInfo.Uses[id].(*types.Var)
		if !ok || seen[v] || v.Parent() == nil || v.Parent() == p.pkg.Types.Scope() {
			return true
		}
		inFunc := s.decl.Pos() <= v.Pos() && v.Pos() < s.decl.End()
		inStmt := s.stmt.Pos() <= v.Pos() && v.Pos() < s.stmt.End()
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
	e.replaceNode(s.stmt, "")
	end := p.fset.File(f.Pos())
	e.replace(end.Pos(end.Size()), end.Pos(end.Size()),
		fmt.Sprintf("\nfunc %s(%s) {\n\t%s\n}\n", movedFunc, strings.Join(params, ", "), p.text(s.stmt)))
	return ""
}

// fileQualifier writes type names as the file spells them; a package
// the file does not import cannot be spelled, which the returned error
// records.
func (p *goPackage) fileQualifier(f *ast.File) (types.Qualifier, *error) {
	names := map[string]string{}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if spec.Name != nil {
			names[path] = spec.Name.Name
		} else if imp := p.pkg.Imports[path]; imp != nil {
			names[path] = imp.Name
		}
	}
	var err error
	return func(pkg *types.Package) string {
		if pkg == p.pkg.Types {
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
func (p *goPackage) wrongReceiver(e *edits, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "the call is not a method call"
	}
	selection := p.pkg.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return "the call is not a method call"
	}
	method := selection.Obj().(*types.Func)
	params := method.Signature().Params()
	recv := namedOf(selection.Recv())
	sc := p.pkg.Types.Scope()
	for _, name := range sc.Names() { // sorted
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named == recv || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, p.pkg.Types, sel.Sel.Name)
		other, ok := obj.(*types.Func)
		if !ok || !types.Identical(other.Signature().Params(), params) {
			continue
		}
		e.replaceNode(sel.X, "new("+name+")")
		return ""
	}
	return fmt.Sprintf("no other type of package %s has a method %s with these parameters", p.pkg.Name, sel.Sel.Name)
}

// namedOf returns the named type of t or *t, or nil.
func namedOf(t types.Type) *types.Named {
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
