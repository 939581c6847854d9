package mutate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// standalone is a statement that holds a guarded call, as a revert can
// take it out of the code: the statement itself, or an if, switch or for
// statement's initialiser hoisted out of its header. A revert rewrites
// the text of the statement and puts the result in its place.
type standalone struct {
	// text is the statement as a statement of its own.
	text string
	// moved is what a function of its own holds of the statement (the
	// moved revert), with the names it defines used.
	moved string
	// indent is the white space of the statement's line.
	indent string
	// put replaces the statement by its reverted text.
	put func(e *Edits, reverted string)
}

// standaloneOf returns the statement of a site as a revert takes it, or
// why it cannot be taken out alone.
//
// An initialiser (`if err := cb.dev.check(); err != nil {...}`) cannot be
// deleted, commented out or wrapped in place: the header has room for one
// simple statement and the condition uses what it defines. So the
// statement that owns it is wrapped in a block of its own, the names the
// initialiser defines are declared there with their types, and the
// initialiser becomes an assignment before the statement, which the
// revert then rewrites like any other; the header keeps an empty
// initialiser (`if ; err != nil`), which Go accepts:
//
//	{
//		var err error
//		err = cb.dev.check()   // deleted, commented out, under if false ...
//		if ; err != nil {...}
//	}
//
// The names keep their zero values when the call is gone, which is what
// a revert that deletes the call leaves behind in real code too.
func (p *Package) standaloneOf(s StmtSite) (*standalone, string) {
	owner, outer := p.initOwner(s.Decl, s.Stmt)
	if owner == nil {
		text := p.Text(s.Stmt)
		return &standalone{
			text: text, moved: text, indent: p.Indent(s.Stmt.Pos()),
			put: func(e *Edits, r string) { e.ReplaceNode(s.Stmt, r) },
		}, ""
	}
	text := p.Text(s.Stmt)
	moved := text
	var decls []string
	if as, ok := s.Stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		qual, qerr := p.fileQualifier(p.FileOf[s.Decl])
		var used []string
		for _, lhs := range as.Lhs {
			id, ok := lhs.(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := p.Pkg.TypesInfo.Defs[id].(*types.Var)
			if !ok {
				continue // blank, or a name the statement assigns again
			}
			decls = append(decls, "var "+id.Name+" "+types.TypeString(v.Type(), qual))
			used = append(used, id.Name)
		}
		if *qerr != nil {
			return nil, (*qerr).Error()
		}
		at := int(as.TokPos - as.Pos())
		text = text[:at] + "=" + text[at+len(":="):]
		for _, name := range used {
			moved += "\n\t_ = " + name // defined there and used nowhere else
		}
	}
	ind := p.Indent(owner.Pos())
	init := s.Stmt
	return &standalone{
		text: text, moved: moved, indent: ind + "\t",
		put: func(e *Edits, r string) {
			e.ReplaceNode(init, "")
			var b strings.Builder
			b.WriteString("{\n")
			for _, d := range decls {
				b.WriteString(ind + "\t" + d + "\n")
			}
			b.WriteString(ind + "\t" + r + "\n" + ind + "\t")
			e.Insert(outer.Pos(), b.String())
			e.Insert(outer.End(), "\n"+ind+"}")
		},
	}, ""
}

// initOwner returns the if, switch or for statement whose initialiser
// stmt is, and the statement to wrap: the owner, or the labelled
// statement around it, so that the label stays on the loop it names.
// Both are nil when stmt is not an initialiser.
func (p *Package) initOwner(d *ast.FuncDecl, stmt ast.Stmt) (owner, outer ast.Stmt) {
	path, _ := astutil.PathEnclosingInterval(p.FileOf[d], stmt.Pos(), stmt.End())
	for i, n := range path {
		if n != stmt || i+1 >= len(path) {
			continue
		}
		var init ast.Stmt
		switch o := path[i+1].(type) {
		case *ast.IfStmt:
			init = o.Init
		case *ast.SwitchStmt:
			init = o.Init
		case *ast.TypeSwitchStmt:
			init = o.Init
		case *ast.ForStmt:
			init = o.Init
		}
		if init != stmt {
			return nil, nil
		}
		owner = path[i+1].(ast.Stmt)
		outer = owner
		if i+2 < len(path) {
			if l, ok := path[i+2].(*ast.LabeledStmt); ok {
				outer = l
			}
		}
		return owner, outer
	}
	return nil, nil
}
