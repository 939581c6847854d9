package mutate

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// Acquisition is a statement that takes a lock (Lock or RLock, not under
// a condition nor deferred) in a function of the package.
type Acquisition struct {
	Decl *ast.FuncDecl
	Stmt *ast.ExprStmt
}

// Acquisitions returns the live statements of the package that take the
// lock, in source order: in any block of a declaration and of the
// function literals that run in it.
func (p *Package) Acquisitions(lock *types.Var) []Acquisition {
	res := &locks.Resolver{Info: p.Pkg.TypesInfo, Live: p.Live}
	var out []Acquisition
	for _, d := range p.SortedDecls() {
		body := p.Live.Func(d)
		if body == nil {
			continue
		}
		body.Walk(func(s *live.Step, e *live.Effect) {
			es, ok := s.Node.(*ast.ExprStmt)
			if !ok || e.Call == nil || e.Cond || e.Deferred || ast.Unparen(es.X) != e.Call {
				return
			}
			op, ref := res.Op(e.Call)
			if is, _ := ref.Is(lock); is && (op == locks.Lock || op == locks.RLock) {
				out = append(out, Acquisition{Decl: d, Stmt: es})
			}
		})
	}
	return out
}

// SortedDecls returns the package's declarations in source order: by file
// name, then by offset in the file. Not by token.Pos, which orders files as
// the loader added them to the file set, and go/packages parses a
// package's files concurrently: the first declaration that qualifies, in
// which a kind writes its mutant, would differ from run to run.
func (p *Package) SortedDecls() []*ast.FuncDecl {
	type keyed struct {
		d      *ast.FuncDecl
		file   string
		offset int
	}
	ks := make([]keyed, 0, len(p.Decls))
	for _, d := range p.Decls {
		at := p.Fset.Position(d.Pos())
		ks = append(ks, keyed{d, at.Filename, at.Offset})
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].file != ks[j].file {
			return ks[i].file < ks[j].file
		}
		return ks[i].offset < ks[j].offset
	})
	ds := make([]*ast.FuncDecl, len(ks))
	for i, k := range ks {
		ds[i] = k.d
	}
	return ds
}

// SpellLock returns an expression that names lock inside d: a package
// variable by its name, and a field through the receiver or a parameter,
// following fields a few levels down (cb.dev.pool.mu). A field d cannot
// reach is spelled on a value of its type that the mutant declares: the
// same lock as far as the rules go, which tell no values apart. It returns
// false when the lock cannot be named at all.
func (p *Package) SpellLock(e *Edits, d *ast.FuncDecl, lock *types.Var) (string, bool) {
	if !lock.IsField() {
		switch {
		case lock.Pkg() == p.Pkg.Types:
			return lock.Name(), true
		case lock.Exported():
			for _, imp := range p.FileOf[d].Imports {
				if strings.Trim(imp.Path.Value, `"`) != lock.Pkg().Path() {
					continue
				}
				name := lock.Pkg().Name()
				if imp.Name != nil {
					name = imp.Name.Name
				}
				return name + "." + lock.Name(), true
			}
		}
		return "", false
	}
	if x, ok := p.fieldPath(d, lock); ok {
		return x, true
	}
	owner := p.Follow(lock, invariants.Exclusive, nil).Owner
	if owner == nil {
		return "", false
	}
	typ, err := e.TypeString(owner)
	if err != nil {
		return "", false
	}
	e.Decl("var %s %s", holderVar, typ)
	return holderVar + "." + lock.Name(), true
}

// holderVar is the value a mutant declares to hold a lock its function
// cannot reach.
const holderVar = "guardlintLockHolder"

// fieldPath spells a field lock through d's receiver or parameters.
func (p *Package) fieldPath(d *ast.FuncDecl, lock *types.Var) (string, bool) {
	type root struct {
		expr string
		t    types.Type
	}
	var queue []root
	add := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if n.Name != "_" {
					queue = append(queue, root{n.Name, p.Pkg.TypesInfo.TypeOf(n)})
				}
			}
		}
	}
	add(d.Recv)
	add(d.Type.Params)
	seen := map[types.Type]bool{}
	for depth := 0; depth < 4 && len(queue) > 0; depth++ {
		var next []root
		for _, r := range queue {
			st, ok := locks.Deref(r.t).Underlying().(*types.Struct)
			if !ok || seen[r.t] {
				continue
			}
			seen[r.t] = true
			for i := range st.NumFields() {
				f := st.Field(i)
				if f.Pkg() != p.Pkg.Types && !f.Exported() {
					continue
				}
				if f.Origin() == lock.Origin() {
					return r.expr + "." + f.Name(), true
				}
				next = append(next, root{r.expr + "." + f.Name(), f.Type()})
			}
		}
		queue = next
	}
	return "", false
}

// LockedSection adds to e a lock and an unlock of lock at once, spelled
// in d, and returns their text; false when d cannot name the lock.
func (p *Package) LockedSection(e *Edits, d *ast.FuncDecl, lock *types.Var) (string, bool) {
	x, ok := p.SpellLock(e, d, lock)
	return x + ".Lock(); " + x + ".Unlock()", ok
}

// InsertAfter adds the edit that runs text right after a statement, on a
// line of its own, and builds the mutant.
func (p *Package) InsertAfter(inv *invariants.Invariant, e *Edits, d *ast.FuncDecl, after ast.Stmt, op, text string) *mutant.Mutant {
	e.Insert(after.End(), "\n"+p.Indent(after.Pos())+text)
	return NewMutant(inv, p, d, op, e, "")
}

// InsertFirst adds the edit that runs text as the first statement of a
// block, and builds the mutant.
func (p *Package) InsertFirst(inv *invariants.Invariant, e *Edits, d *ast.FuncDecl, block *ast.BlockStmt, op, text string) *mutant.Mutant {
	var ind string
	if len(block.List) > 0 {
		ind = p.Indent(block.List[0].Pos())
	} else {
		ind = p.Indent(block.Pos()) + "\t"
	}
	e.Insert(block.Lbrace+1, "\n"+ind+text+";")
	return NewMutant(inv, p, d, op, e, "")
}

// WrapInLock builds a mutant that takes lock around the statement that
// holds a call: the statement of a block (or case) that contains it,
// between Lock and Unlock.
func (p *Package) WrapInLock(inv *invariants.Invariant, d *ast.FuncDecl, call ast.Node, lock *types.Var, op string) *mutant.Mutant {
	e := NewEdits(p)
	x, ok := p.SpellLock(e, d, lock)
	if !ok {
		return NewMutant(inv, p, d, op, nil, "the function cannot name the lock")
	}
	stmt, holder := p.StmtOf(d, call)
	for stmt != nil && !isStmtList(holder) {
		stmt, holder = p.StmtOf(d, holder)
	}
	if stmt == nil {
		return NewMutant(inv, p, d, op, nil, "the call is in no statement of a block")
	}
	ind := p.Indent(stmt.Pos())
	e.Insert(stmt.Pos(), x+".Lock()\n"+ind)
	e.Insert(stmt.End(), "\n"+ind+x+".Unlock()")
	return NewMutant(inv, p, d, op, e, "")
}

// isStmtList reports whether a node holds a list of statements.
func isStmtList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// Lock resolves a lock an invariant names, or returns nil: a name that
// does not resolve makes the baseline run report the invariant, and
// there is nothing to mutate.
func (p *Package) Lock(n invariants.Name) *types.Var {
	v, err := p.Scope.Var(n)
	if err != nil {
		return nil
	}
	return v
}
