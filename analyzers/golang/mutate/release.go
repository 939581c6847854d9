package mutate

import (
	"go/ast"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/mutant"
)

// releaseMutant builds a revert of the release, or says why it cannot.
func (p *Package) releaseMutant(e *Edits, s LockSite, lk *locks.Followed, op string) string {
	var del ast.Node
	switch op {
	case mutant.OpUnlockDeleted:
		switch {
		case s.unlock != nil:
			del = s.unlock
		case s.release != nil:
			del = s.release
		default:
			del = p.deferredRelease(s.decl, lk)
		}
		if del == nil {
			return "no deferred unlock, and no explicit unlock in the outermost block"
		}
	case mutant.OpUnlockDeletedOnePath:
		del = p.unlockBeforeReturn(s.decl, lk)
		if del == nil {
			return "no explicit unlock right before a return"
		}
	}
	e.ReplaceNode(del, "")
	return ""
}

// liveSteps maps the statements of a function's live body to their
// steps.
func (p *Package) liveSteps(d *ast.FuncDecl) map[ast.Node]*live.Step {
	steps := map[ast.Node]*live.Step{}
	for _, blk := range p.Live.Func(d).Blocks {
		for _, st := range blk.Steps {
			steps[st.Node] = st
		}
	}
	return steps
}

// deferredRelease returns the first defer statement of the outermost
// block whose call releases the lock, or nil.
func (p *Package) deferredRelease(d *ast.FuncDecl, lk *locks.Followed) ast.Node {
	steps := p.liveSteps(d)
	recv := locks.Receiver(p.Pkg.TypesInfo, d)
	for _, st := range d.Body.List {
		if ds, ok := st.(*ast.DeferStmt); ok && steps[ds] != nil && releases(lk, steps[ds], recv) {
			return ds
		}
	}
	return nil
}

// unlockBeforeReturn returns the first live statement of the function,
// outside its literals, that releases the lock and is followed in its
// block by a return, or ends the body: the unlock of one path.
func (p *Package) unlockBeforeReturn(d *ast.FuncDecl, lk *locks.Followed) ast.Node {
	steps := p.liveSteps(d)
	recv := locks.Receiver(p.Pkg.TypesInfo, d)
	var found ast.Node
	check := func(list []ast.Stmt, end bool) {
		for i, st := range list {
			es, ok := st.(*ast.ExprStmt)
			if !ok || found != nil || steps[es] == nil || !releasesNow(lk, steps[es], recv) {
				continue
			}
			last := i == len(list)-1
			if (last && end) || (!last && isReturn(list[i+1])) {
				found = es
			}
		}
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			check(n.List, n == d.Body)
		case *ast.CaseClause:
			check(n.Body, false)
		case *ast.CommClause:
			check(n.Body, false)
		}
		return found == nil
	})
	return found
}

// isReturn reports whether a statement is a return.
func isReturn(st ast.Stmt) bool {
	_, ok := st.(*ast.ReturnStmt)
	return ok
}
