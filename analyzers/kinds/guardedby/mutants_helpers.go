package guardedby

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/locks"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/invariants"
)

// A field touched only in helpers that their callers hold the lock for
// (database/sql's DB.dep, in addDepLocked and removeDepLocked, called
// under db.mu) has no function that takes the lock and then touches it:
// its reverts are made around a call of such a helper instead, in a
// function that takes the lock and then calls one, and they are killed
// where the check reports the helper's need, naming the mutated function
// on the call path (mutant.Site.Callee).

// touch is what a revert is made around: an access of the field, or,
// where helpers is set, a call of a function of the package that touches
// it without taking the lock (writers: those that write it).
type touch struct {
	field            *types.Var
	helpers, writers map[*types.Func]bool
}

// in returns the access of the field (accessIn), or the call of a helper,
// directly in a statement of d (not in a literal) in code that runs; a
// write, or a helper that writes, when write is set.
func (t touch) in(p *mutate.Package, d *ast.FuncDecl, st ast.Stmt, write bool) ast.Node {
	if sel := accessIn(p, d, st, t.field, write); sel != nil {
		return sel
	}
	if t.helpers == nil {
		return nil
	}
	var out ast.Node
	ast.Inspect(st, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn := calledFunc(p, n)
			if fn != nil && t.helpers[fn] && (!write || t.writers[fn]) && !deadInDecl(p, d, n.Pos()) {
				out = n
			}
		}
		return true
	})
	return out
}

// mentioned is the cheap test before a function's lock state is
// analysed: its body selects the field, or calls a helper.
func (t touch) mentioned(p *mutate.Package, body *ast.BlockStmt) bool {
	if selects(p, body, t.field) {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found && t.helpers[calledFunc(p, call)] {
			found = true
		}
		return !found
	})
	return found
}

// regionCalls reports whether a statement that the lock site holds calls a
// helper (one that writes, when write is set).
func regionCalls(p *mutate.Package, d *ast.FuncDecl, t touch, s mutate.LockSite, write bool) bool {
	for _, st := range s.Held() {
		if t.in(p, d, st, write) != nil {
			return true
		}
	}
	return false
}

// calledFunc is the function of the package a call calls by name, or nil.
func calledFunc(p *mutate.Package, call *ast.CallExpr) *types.Func {
	id := calleeIdent(call)
	if id == nil {
		return nil
	}
	fn, _ := p.Pkg.TypesInfo.Uses[id].(*types.Func)
	if fn == nil || fn.Pkg() != p.Pkg.Types {
		return nil
	}
	return fn.Origin()
}

// helpersOf lists the functions of the package that touch the field in
// code that runs, or call such a function, without taking the lock in
// their outermost block: what their callers must hold it for.
func helpersOf(p *mutate.Package, field, lock *types.Var) touch {
	t := touch{field: field, helpers: map[*types.Func]bool{}, writers: map[*types.Func]bool{}}
	var follows []*locks.Followed
	for _, mode := range []invariants.LockMode{invariants.Exclusive, invariants.Shared} {
		follows = append(follows, p.Follow(lock, mode, nil))
	}
	// Whether a function takes the lock is asked only of those that
	// touch the field: a package such as net/http has thousands.
	takes := map[*ast.FuncDecl]bool{}
	takesLock := func(d *ast.FuncDecl) bool {
		v, ok := takes[d]
		if !ok {
			for _, f := range follows {
				if _, found := p.FindLock(d, f); found {
					v = true
				}
			}
			takes[d] = v
		}
		return v
	}
	for changed := true; changed; {
		changed = false
		for _, d := range p.SortedDecls() {
			fn, _ := p.Pkg.TypesInfo.Defs[d.Name].(*types.Func)
			if d.Body == nil || fn == nil || (t.helpers[fn] && t.writers[fn]) {
				continue
			}
			if !t.helpers[fn] && t.touchesIn(p, d, false) && !takesLock(d) {
				t.helpers[fn], changed = true, true
			}
			if t.helpers[fn] && !t.writers[fn] && t.touchesIn(p, d, true) {
				t.writers[fn], changed = true, true
			}
		}
	}
	return t
}

// touchesIn reports whether d's body, outside literals, touches the field
// or calls a helper (writes it, or calls a writer, when write is set).
func (t touch) touchesIn(p *mutate.Package, d *ast.FuncDecl, write bool) bool {
	// Every access and every call of a helper, or with write every call
	// of a writer: in checks the whole body at once.
	if t.in(p, d, d.Body, write) != nil {
		return true
	}
	if !write {
		return false
	}
	// A write of the field is told by its own statement (writesIn).
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt:
			found = accessIn(p, d, n.(ast.Stmt), t.field, true) != nil
		}
		return !found
	})
	return found
}
