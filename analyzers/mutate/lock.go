package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Reverts of a lock held for a function's body.
const (
	OpLockDeleted   = "lock-deleted"           // Lock and its deferred Unlock gone
	OpEmptySection  = "empty-critical-section" // Lock(); Unlock() then the work
	OpUnlockedEarly = "unlocked-early"         // an explicit Unlock after the first work
	OpAnotherLock   = "another-lock"           // a new mutex of the same type
	OpLockedLate    = "locked-late"            // Lock after the first work
	OpLockOneBranch = "lock-one-branch"        // if cond { Lock() }
	OpNestedScope   = "nested-scope"           // func() { Lock(); defer Unlock() }()
	OpDeferredLock  = "deferred-lock"          // defer Lock()
)

// HoldOps are the reverts of a held lock.
var HoldOps = []string{OpLockDeleted, OpEmptySection, OpUnlockedEarly, OpAnotherLock, OpLockedLate, OpLockOneBranch, OpNestedScope, OpDeferredLock}

// LockSite is how a target takes its lock: the statement that locks, the
// deferred unlock if there is one, and the first statement after them,
// the first that does work.
type LockSite struct {
	decl   *ast.FuncDecl
	lock   *ast.ExprStmt
	recv   ast.Expr // the mutex expression of a direct Lock call, or nil for a helper
	unlock *ast.DeferStmt
	work   ast.Stmt
	// lockText and unlockText are the lock and unlock calls as written.
	lockText, unlockText string
}

// FindLock finds the statement of the function's outermost block that
// takes the lock: a Lock or RLock call on it, or a call of a helper
// under via.
func (p *Package) FindLock(d *ast.FuncDecl, lock *types.Var, via []*types.Func) (LockSite, bool) {
	s := LockSite{decl: d}
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
		if fn, ok := CalleeFunc(p.Pkg.TypesInfo, call); ok && slices.Contains(via, fn) {
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
	s.lockText = p.Text(s.lock)
	next := at + 1
	if next < len(list) {
		if ds, ok := list[next].(*ast.DeferStmt); ok && p.isUnlockOf(ds.Call, s.recv) {
			s.unlock = ds
			s.unlockText = p.Text(ds.Call)
			next++
		}
	}
	if s.unlockText == "" && s.recv != nil {
		name := "Unlock"
		if strings.HasSuffix(s.lockText, "RLock()") {
			name = "RUnlock"
		}
		s.unlockText = p.Text(s.recv) + "." + name + "()"
	}
	for ; next < len(list); next++ {
		if p.DoesWork(list[next]) {
			s.work = list[next]
			break
		}
	}
	return s, true
}

// DoesWork reports whether a statement does work in the hold rule's
// sense. Empty statements, defer statements, and declarations without a
// value or with constant values may precede the lock, so moving the lock
// after them is no revert: the reverts that move the lock or the unlock
// go past the first statement that does work.
func (p *Package) DoesWork(st ast.Stmt) bool {
	constant := func(exprs []ast.Expr) bool {
		for _, e := range exprs {
			if tv, ok := p.Pkg.TypesInfo.Types[e]; !ok || tv.Value == nil {
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
func (p *Package) refersTo(e ast.Expr, lock *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			return p.Pkg.TypesInfo.Uses[x] == lock
		case *ast.SelectorExpr:
			return p.Pkg.TypesInfo.Uses[x.Sel] == lock
		}
		return false
	}
}

// isUnlockOf reports whether call unlocks the same expression the lock
// call locked (compared as written), or, for a helper, any unlock.
func (p *Package) isUnlockOf(call *ast.CallExpr, recv ast.Expr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Unlock" && sel.Sel.Name != "RUnlock") {
		return false
	}
	return recv == nil || p.Text(sel.X) == p.Text(recv)
}

// HoldMutant builds one revert of a lock site.
func (p *Package) HoldMutant(inv *invariants.Invariant, s LockSite, lock *types.Var, op string) *Mutant {
	e := NewEdits(p)
	ind := p.Indent(s.lock.Pos())
	dropUnlock := func() {
		if s.unlock != nil {
			e.ReplaceNode(s.unlock, "")
		}
	}
	void := ""
	switch op {
	case OpLockDeleted:
		e.ReplaceNode(s.lock, "")
		dropUnlock()
	case OpEmptySection:
		if s.unlockText == "" {
			void = "no unlock call to place"
			break
		}
		e.ReplaceNode(s.lock, s.lockText+"; "+s.unlockText)
		dropUnlock()
	case OpUnlockedEarly:
		if s.unlockText == "" || s.work == nil {
			void = "no unlock call to place, or no work after the lock"
			break
		}
		dropUnlock()
		void = p.afterWork(e, s, s.unlockText, ind)
	case OpAnotherLock:
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
	case OpLockedLate:
		if s.work == nil {
			void = "no work after the lock"
			break
		}
		e.ReplaceNode(s.lock, "")
		void = p.afterWork(e, s, s.lockText, ind)
	case OpLockOneBranch:
		e.ReplaceNode(s.lock, "if "+CondVar+" { "+s.lockText+" }")
		e.Decl("var %s bool", CondVar)
	case OpNestedScope:
		if s.unlock == nil {
			void = "no deferred unlock: a closure around the lock alone would still hold it"
			break
		}
		e.ReplaceNode(s.lock, "func() { "+s.lockText+"; "+p.Text(s.unlock)+" }()")
		dropUnlock()
	case OpDeferredLock:
		e.ReplaceNode(s.lock, "defer "+s.lockText)
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
