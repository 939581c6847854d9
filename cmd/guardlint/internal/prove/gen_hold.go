package prove

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Reverts of a lock held for a function's body.
const (
	opLockDeleted   = "lock-deleted"           // Lock and its deferred Unlock gone
	opEmptySection  = "empty-critical-section" // Lock(); Unlock() then the work
	opUnlockedEarly = "unlocked-early"         // an explicit Unlock after the first work
	opAnotherLock   = "another-lock"           // a new mutex of the same type
	opLockedLate    = "locked-late"            // Lock after the first work
	opLockOneBranch = "lock-one-branch"        // if cond { Lock() }
	opNestedScope   = "nested-scope"           // func() { Lock(); defer Unlock() }()
	opDeferredLock  = "deferred-lock"          // defer Lock()
)

// holdOps are the reverts of a held lock.
var holdOps = []string{opLockDeleted, opEmptySection, opUnlockedEarly, opAnotherLock, opLockedLate, opLockOneBranch, opNestedScope, opDeferredLock}

// lockSite is how a target takes its lock: the statement that locks, the
// deferred unlock if there is one, and the first statement after them,
// the first that does work.
type lockSite struct {
	decl   *ast.FuncDecl
	lock   *ast.ExprStmt
	recv   ast.Expr // the mutex expression of a direct Lock call, or nil for a helper
	unlock *ast.DeferStmt
	work   ast.Stmt
	// lockText and unlockText are the lock and unlock calls as written.
	lockText, unlockText string
}

// holdMutants reverts the lock of every target of the package.
func (p *goPackage) holdMutants(inv *invariants.Invariant) []*Mutant {
	lock, err := p.scope.Var(inv.Hold.Lock)
	if err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	via := resolveFuncs(p.scope, inv.Hold.Via)
	var out []*Mutant
	for _, d := range p.targets(inv) {
		s, ok := p.findLock(d, lock, via)
		if !ok {
			out = append(out, newMutant(inv, p, d, "locate", nil, "the lock is not taken by a statement of the function's outermost block"))
			continue
		}
		for _, op := range holdOps {
			out = append(out, p.holdMutant(inv, s, lock, op))
		}
	}
	return out
}

// findLock finds the statement of the function's outermost block that
// takes the lock: a Lock or RLock call on it, or a call of a helper
// under via.
func (p *goPackage) findLock(d *ast.FuncDecl, lock *types.Var, via []*types.Func) (lockSite, bool) {
	s := lockSite{decl: d}
	list := d.Body.List
	at := -1
	for i, st := range list {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			continue
		}
		if fn, ok := calleeFunc(p.pkg.TypesInfo, call); ok && containsFunc(via, fn) {
			s.lock, at = es, i
			break
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Lock" && sel.Sel.Name != "RLock") || !p.refersTo(sel.X, lock) {
			continue
		}
		s.lock, s.recv, at = es, sel.X, i
		break
	}
	if s.lock == nil {
		return s, false
	}
	s.lockText = p.text(s.lock)
	next := at + 1
	if next < len(list) {
		if ds, ok := list[next].(*ast.DeferStmt); ok && p.isUnlockOf(ds.Call, s.recv) {
			s.unlock = ds
			s.unlockText = p.text(ds.Call)
			next++
		}
	}
	if s.unlockText == "" && s.recv != nil {
		name := "Unlock"
		if strings.HasSuffix(s.lockText, "RLock()") {
			name = "RUnlock"
		}
		s.unlockText = p.text(s.recv) + "." + name + "()"
	}
	for ; next < len(list); next++ {
		if p.doesWork(list[next]) {
			s.work = list[next]
			break
		}
	}
	return s, true
}

// doesWork reports whether a statement does work in the hold rule's
// sense. Empty statements, defer statements, and declarations without a
// value or with constant values may precede the lock, so moving the lock
// after them is no revert: the reverts that move the lock or the unlock
// go past the first statement that does work.
func (p *goPackage) doesWork(st ast.Stmt) bool {
	constant := func(exprs []ast.Expr) bool {
		for _, e := range exprs {
			if tv, ok := p.pkg.TypesInfo.Types[e]; !ok || tv.Value == nil {
				return false
			}
		}
		return true
	}
	switch st := st.(type) {
	case *ast.EmptyStmt, *ast.DeferStmt:
		return false
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok {
			return true
		}
		for _, spec := range gd.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok && !constant(vs.Values) {
				return true
			}
		}
		return false
	case *ast.AssignStmt:
		return st.Tok != token.DEFINE || !constant(st.Rhs)
	}
	return true
}

// refersTo reports whether e denotes the lock variable or field, through
// parentheses, & and *.
func (p *goPackage) refersTo(e ast.Expr, lock *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			return p.pkg.TypesInfo.Uses[x] == lock
		case *ast.SelectorExpr:
			return p.pkg.TypesInfo.Uses[x.Sel] == lock
		}
		return false
	}
}

// isUnlockOf reports whether call unlocks the same expression the lock
// call locked (compared as written), or, for a helper, any unlock.
func (p *goPackage) isUnlockOf(call *ast.CallExpr, recv ast.Expr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Unlock" && sel.Sel.Name != "RUnlock") {
		return false
	}
	return recv == nil || p.text(sel.X) == p.text(recv)
}

// holdMutant builds one revert of a lock site.
func (p *goPackage) holdMutant(inv *invariants.Invariant, s lockSite, lock *types.Var, op string) *Mutant {
	e := newEdits(p)
	ind := p.indent(s.lock.Pos())
	dropUnlock := func() {
		if s.unlock != nil {
			e.replaceNode(s.unlock, "")
		}
	}
	void := ""
	switch op {
	case opLockDeleted:
		e.replaceNode(s.lock, "")
		dropUnlock()
	case opEmptySection:
		if s.unlockText == "" {
			void = "no unlock call to place"
			break
		}
		e.replaceNode(s.lock, s.lockText+"; "+s.unlockText)
		dropUnlock()
	case opUnlockedEarly:
		if s.unlockText == "" || s.work == nil {
			void = "no unlock call to place, or no work after the lock"
			break
		}
		dropUnlock()
		void = p.afterWork(e, s, s.unlockText, ind)
	case opAnotherLock:
		if s.recv == nil {
			void = "the lock is taken by a helper"
			break
		}
		typ, err := e.typeString(lock.Type())
		if err != nil {
			void = err.Error()
			break
		}
		e.decl("var %s %s", otherMu, typ)
		e.replaceNode(s.recv, otherMu)
		if s.unlock != nil {
			if sel, ok := ast.Unparen(s.unlock.Call.Fun).(*ast.SelectorExpr); ok {
				e.replaceNode(sel.X, otherMu)
			}
		}
	case opLockedLate:
		if s.work == nil {
			void = "no work after the lock"
			break
		}
		e.replaceNode(s.lock, "")
		void = p.afterWork(e, s, s.lockText, ind)
	case opLockOneBranch:
		e.replaceNode(s.lock, "if "+condVar+" { "+s.lockText+" }")
		e.decl("var %s bool", condVar)
	case opNestedScope:
		if s.unlock == nil {
			void = "no deferred unlock: a closure around the lock alone would still hold it"
			break
		}
		e.replaceNode(s.lock, "func() { "+s.lockText+"; "+p.text(s.unlock)+" }()")
		dropUnlock()
	case opDeferredLock:
		e.replaceNode(s.lock, "defer "+s.lockText)
	default:
		void = "unknown revert " + op
	}
	return newMutant(inv, p, s.decl, op, e, void)
}

// afterWork places a statement right after the first work of a lock site.
func (p *goPackage) afterWork(e *edits, s lockSite, stmt, ind string) string {
	return p.placeAfter(e, s.decl, s.work, stmt, ind)
}

// placeAfter places a statement right after another. When that one is a
// return with results, the results are evaluated first, then the
// statement runs, then the function returns them: the work of the return
// is done, the return is not yet.
func (p *goPackage) placeAfter(e *edits, d *ast.FuncDecl, after ast.Stmt, stmt, ind string) string {
	ret, ok := after.(*ast.ReturnStmt)
	if !ok {
		e.insert(after.End(), "\n"+ind+stmt)
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
		results[i] = p.text(r)
	}
	list := strings.Join(names, ", ")
	e.replaceNode(ret, list+" := "+strings.Join(results, ", ")+"\n"+ind+stmt+"\n"+ind+"return "+list)
	return ""
}

// calleeFunc returns the function a call statically calls.
func calleeFunc(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
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

// containsFunc reports whether fn is in list.
func containsFunc(list []*types.Func, fn *types.Func) bool {
	for _, f := range list {
		if f == fn {
			return true
		}
	}
	return false
}
