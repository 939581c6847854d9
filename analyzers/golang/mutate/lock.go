package mutate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// LockSite is how a target takes its lock: the statement that locks, the
// deferred unlock if there is one, and the first statement after them,
// the first that does work.
type LockSite struct {
	decl *ast.FuncDecl
	// list is the statement list that holds the lock statement: the
	// outermost block's, or a nested block's or clause's.
	list   []ast.Stmt
	follow *locks.Followed // the lock as the rules follow it
	lock   *ast.ExprStmt
	recv   ast.Expr // the mutex expression of a direct Lock call, or nil for a helper
	shared bool     // the lock is taken with RLock
	unlock *ast.DeferStmt
	// release is the last statement of the outermost block that unlocks
	// explicitly, when the function releases the lock that way.
	release *ast.ExprStmt
	// work and lastWork are the first and the last statements after the
	// lock that do work.
	work, lastWork ast.Stmt
	// lockText and unlockText are the lock and unlock calls as written.
	lockText, unlockText string
}

// Follow returns the lock as the rules follow it from this package: the
// variable or field, the mode, and the helpers whose call takes it.
func (p *Package) Follow(lock *types.Var, mode invariants.LockMode, helpers []*types.Func) *locks.Followed {
	f := &locks.Followed{Res: &locks.Resolver{Info: p.Pkg.TypesInfo, Live: p.Live}, Lock: lock, Mode: mode, Helpers: helpers}
	if lock.IsField() {
		for _, obj := range p.Pkg.TypesInfo.Defs {
			if tn, ok := obj.(*types.TypeName); ok {
				if st, ok := tn.Type().Underlying().(*types.Struct); ok && hasField(st, lock) {
					f.Owner = tn.Type()
				}
			}
		}
	}
	return f
}

// hasField reports whether st declares v.
func hasField(st *types.Struct, v *types.Var) bool {
	for i := range st.NumFields() {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}

// FindLock finds the statement of the function's outermost block that
// takes the lock, resolved by type as the rules resolve it (a Lock or
// RLock call on it, through an alias or an embedded mutex, or a call of
// a helper), the deferred unlock right after it, and the first statement
// after them that does work, by the rules' one definition of work.
func (p *Package) FindLock(d *ast.FuncDecl, lk *locks.Followed) (LockSite, bool) {
	return p.findLock(d, d.Body.List, lk, nil)
}

// FindLockIn is FindLock for a statement list of the function other than
// its outermost block's: a nested block or a case clause (a lock taken in
// a loop's body, in an else, in a select case), as StmtLists lists them.
// The site's work, release and held statements are those of that list.
func (p *Package) FindLockIn(d *ast.FuncDecl, list []ast.Stmt, lk *locks.Followed) (LockSite, bool) {
	return p.findLock(d, list, lk, nil)
}

// StmtLists returns the statement lists of a function's nested blocks and
// clauses, in source order, not those of its function literals: where
// FindLockIn looks for a lock the outermost block does not take.
func StmtLists(d *ast.FuncDecl) [][]ast.Stmt {
	var out [][]ast.Stmt
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			if n != d.Body {
				out = append(out, n.List)
			}
		case *ast.CaseClause:
			out = append(out, n.Body)
		case *ast.CommClause:
			out = append(out, n.Body)
		}
		return true
	})
	return out
}

// FindLockBefore is FindLock for the locked region that holds a statement
// of a statement list (the outermost block's, or a site's List): the site
// of the last statement before it that takes the lock. A function that releases the lock and takes it again
// has one region per lock statement, and a kind whose invariant concerns
// some statements only (guarded_by: those that touch its field) reverts
// the region that holds them; reverting the first would leave them
// locked by the later one.
func (p *Package) FindLockBefore(d *ast.FuncDecl, list []ast.Stmt, lk *locks.Followed, st ast.Stmt) (LockSite, bool) {
	return p.findLock(d, list, lk, st)
}

// findLock finds the site of the first statement of the list that takes
// the lock, or with before set, of the last such statement before it.
func (p *Package) findLock(d *ast.FuncDecl, list []ast.Stmt, lk *locks.Followed, before ast.Stmt) (LockSite, bool) {
	s := LockSite{decl: d, list: list, follow: lk}
	body := p.Live.Func(d)
	recv := locks.Receiver(p.Pkg.TypesInfo, d)
	steps := map[ast.Node]*live.Step{}
	for _, blk := range body.Blocks {
		for _, st := range blk.Steps {
			steps[st.Node] = st
		}
	}
	at := -1
	for i, st := range list {
		if st == before {
			break
		}
		es, ok := st.(*ast.ExprStmt)
		if !ok || steps[es] == nil {
			continue
		}
		for _, e := range steps[es].Effects {
			if e.Cond || e.Deferred || lk.Change(e, recv) != locks.Acquires {
				continue
			}
			s.lock, at = es, i
			s.recv, s.shared = nil, false
			if e.Callee == nil || !slices.Contains(lk.Helpers, e.Callee) {
				s.recv = ast.Unparen(e.Call.Fun).(*ast.SelectorExpr).X
				s.shared = lk.Mode == invariants.Shared
			}
			break
		}
		if s.lock != nil && before == nil {
			break
		}
	}
	if s.lock == nil {
		return s, false
	}
	s.lockText = p.Text(s.lock)
	next := at + 1
	if next < len(list) {
		if ds, ok := list[next].(*ast.DeferStmt); ok && steps[ds] != nil && releases(lk, steps[ds], recv) {
			s.unlock = ds
			s.unlockText = p.Text(ds.Call)
			next++
		}
	}
	if s.unlockText == "" && s.recv != nil {
		name := "Unlock"
		if s.shared {
			name = "RUnlock"
		}
		s.unlockText = p.Text(s.recv) + "." + name + "()"
	}
	for ; next < len(list); next++ {
		st := list[next]
		if p.doesWork(lk, body, recv, st) {
			if s.work == nil {
				s.work = st
			}
			s.lastWork = st
		}
		if es, ok := st.(*ast.ExprStmt); ok && steps[es] != nil && releasesNow(lk, steps[es], recv) {
			s.release = es
		}
	}
	if s.unlockText == "" && s.release != nil {
		// A lock a helper takes is given up as the function gives it up
		// explicitly: cr.unlock() after cr.lock().
		s.unlockText = p.Text(s.release)
	}
	return s, true
}

// Held lists the statements of the site's list that run with the lock
// held as the site takes it: those after the lock (and its deferred
// unlock), up to the explicit release when the function releases that
// way.
func (s LockSite) Held() []ast.Stmt {
	list := s.list
	at := slices.IndexFunc(list, func(st ast.Stmt) bool { return st == s.lock })
	if at < 0 {
		return nil
	}
	held := list[at+1:]
	if len(held) > 0 && s.unlock != nil && held[0] == s.unlock {
		held = held[1:]
	}
	if s.release != nil {
		if end := slices.IndexFunc(held, func(st ast.Stmt) bool { return st == s.release }); end >= 0 {
			held = held[:end]
		}
	}
	return held
}

// Lock is the statement of the site's list that takes the lock, nil for
// a site without one (a nil *ast.ExprStmt would be a non-nil ast.Stmt).
func (s LockSite) Lock() ast.Stmt {
	if s.lock == nil {
		return nil
	}
	return s.lock
}

// List is the statement list that holds the site's lock statement.
func (s LockSite) List() []ast.Stmt { return s.list }

// Around returns the site with its first and last work replaced by two
// statements of Held: a kind whose invariant concerns some accesses only
// (guarded_by: those of its field) places locked-late and unlocked-early
// by them. Placed by every statement that does work, the lock would move
// across a statement that touches another field of the same lock, which
// reverts nothing the invariant asks, or a second unlock would land after
// an explicit release, a double release that reverts nothing either.
func (s LockSite) Around(first, last ast.Stmt) LockSite {
	s.work, s.lastWork = first, last
	return s
}

// releasesNow reports whether a statement gives up the lock when it runs.
func releasesNow(lk *locks.Followed, st *live.Step, recv types.Object) bool {
	for _, e := range st.Effects {
		if !e.Deferred && !e.Cond && lk.Change(e, recv) == locks.Releases {
			return true
		}
	}
	return false
}

// releases reports whether a defer statement's deferred call gives up the
// lock.
func releases(lk *locks.Followed, st *live.Step, recv types.Object) bool {
	for _, e := range st.Effects {
		if e.Deferred && lk.Change(e, recv) == locks.Releases {
			return true
		}
	}
	return false
}

// doesWork reports whether a statement of the outermost block does work
// by the rules' definition: whether a live step inside it does, in the
// statement itself or in a literal it runs in place. A statement with no
// live step (dead code) does none.
func (p *Package) doesWork(lk *locks.Followed, body *live.Body, recv types.Object, st ast.Stmt) bool {
	seen := map[*live.Body]bool{}
	var visit func(b *live.Body) bool
	visit = func(b *live.Body) bool {
		if seen[b] {
			return false
		}
		seen[b] = true
		for _, blk := range b.Blocks {
			for _, s := range blk.Steps {
				if s.Node.Pos() < st.Pos() || s.Node.End() > st.End() {
					continue
				}
				if lk.DoesWork(s, recv) {
					return true
				}
				for _, e := range s.Effects {
					if e.Lit != nil && !e.Deferred && visit(e.Lit) {
						return true
					}
				}
			}
		}
		return false
	}
	return visit(body)
}

// HoldMutant builds one revert of a lock site.
func (p *Package) HoldMutant(inv *invariants.Invariant, s LockSite, lock *types.Var, op string) *mutant.Mutant {
	e := NewEdits(p)
	ind := p.Indent(s.lock.Pos())
	dropUnlock := func() {
		if s.unlock != nil {
			e.ReplaceNode(s.unlock, "")
		}
	}
	void := ""
	switch op {
	case mutant.OpLockDeleted:
		e.ReplaceNode(s.lock, "")
		dropUnlock()
	case mutant.OpEmptySection:
		if s.unlockText == "" {
			void = "no unlock call to place"
			break
		}
		e.ReplaceNode(s.lock, s.lockText+"; "+s.unlockText)
		dropUnlock()
	case mutant.OpUnlockedEarly:
		// The unlock goes above the last statement that does work: the
		// deferred one, or the last explicit one, which is dropped.
		if s.unlockText == "" || s.lastWork == nil {
			void = "no unlock call to place, or no work after the lock"
			break
		}
		dropUnlock()
		if s.unlock == nil && s.release != nil && s.release.Pos() > s.lastWork.Pos() {
			e.ReplaceNode(s.release, "")
		}
		e.Insert(s.lastWork.Pos(), s.unlockText+"\n"+p.Indent(s.lastWork.Pos()))
	case mutant.OpUnlockToLock:
		// The typo that turns the release into a second lock: the
		// deferred unlock, or the last explicit one.
		var call *ast.CallExpr
		switch {
		case s.unlock != nil:
			call = s.unlock.Call
		case s.release != nil:
			call, _ = ast.Unparen(s.release.X).(*ast.CallExpr)
		}
		sel, ok := ast.Unparen(callFun(call)).(*ast.SelectorExpr)
		if !ok {
			void = "no unlock method call to retype"
			break
		}
		e.ReplaceNode(sel.Sel, strings.Replace(sel.Sel.Name, "Unlock", "Lock", 1))
	case mutant.OpAnotherLock:
		if s.recv == nil {
			void = "the lock is taken by a helper"
			break
		}
		typ, err := e.TypeString(lock.Type())
		if err != nil {
			void = err.Error()
			break
		}
		e.Decl("var %s %s", otherMu, typ)
		e.ReplaceNode(s.recv, otherMu)
		if s.unlock != nil {
			if sel, ok := ast.Unparen(s.unlock.Call.Fun).(*ast.SelectorExpr); ok {
				e.ReplaceNode(sel.X, otherMu)
			}
		}
	case mutant.OpLockedLate:
		if s.work == nil {
			void = "no work after the lock"
			break
		}
		e.ReplaceNode(s.lock, "")
		void = p.afterWork(e, s, s.lockText, ind)
	case mutant.OpLockOneBranch:
		e.ReplaceNode(s.lock, "if "+CondVar+" { "+s.lockText+" }")
		e.Decl("var %s bool", CondVar)
	case mutant.OpNestedScope:
		if s.unlock == nil {
			void = "no deferred unlock: a closure around the lock alone would still hold it"
			break
		}
		e.ReplaceNode(s.lock, "func() { "+s.lockText+"; "+p.Text(s.unlock)+" }()")
		dropUnlock()
	case mutant.OpDeferredLock:
		e.ReplaceNode(s.lock, "defer "+s.lockText)
	case mutant.OpUnlockDeleted, mutant.OpUnlockDeletedOnePath:
		void = p.releaseMutant(e, s, s.follow, op)
	default:
		void = "unknown revert " + op
	}
	return NewMutant(inv, p, s.decl, op, e, void)
}

// afterWork places a statement right after the first work of a lock site.
func (p *Package) afterWork(e *Edits, s LockSite, stmt, ind string) string {
	return p.PlaceAfter(e, s.decl, s.work, stmt, ind)
}

// PlaceAfter places a statement right after another. When that one is a
// return with results, the results are evaluated first, then the
// statement runs, then the function returns them: the work of the return
// is done, the return is not yet.
func (p *Package) PlaceAfter(e *Edits, d *ast.FuncDecl, after ast.Stmt, stmt, ind string) string {
	ret, ok := after.(*ast.ReturnStmt)
	if !ok {
		e.Insert(after.End(), "\n"+ind+stmt)
		return ""
	}
	if len(ret.Results) == 0 {
		return "the statement is a return without results"
	}
	n := d.Type.Results.NumFields()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", resultVar, i)
	}
	results := make([]string, len(ret.Results))
	for i, r := range ret.Results {
		results[i] = p.Text(r)
	}
	list := strings.Join(names, ", ")
	e.ReplaceNode(ret, list+" := "+strings.Join(results, ", ")+"\n"+ind+stmt+"\n"+ind+"return "+list)
	return ""
}

// CalleeFunc returns the function a call statically calls.
func CalleeFunc(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok {
		return nil, false
	}
	return fn.Origin(), true
}

// callFun returns a call's function expression, or nil.
func callFun(c *ast.CallExpr) ast.Expr {
	if c == nil {
		return nil
	}
	return c.Fun
}
