package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/invariants"
)

// opIntoGoroutine moves an access of the field, in a function that holds
// the lock, into a goroutine started there: it runs holding nothing.
const opIntoGoroutine = "into-goroutine"

// guardedOps are the Go reverts of a guarded field, each made in one
// function that takes the lock and then touches the field: the lock
// deleted, the access made before the lock is taken (out-of-scope: a copy
// of the first access of the field, on the receiver or a parameter, put
// right before the lock statement, as a read `_ = x.f`, or as a write
// `x.f = x.f` where the function writes it), the lock taken after the
// first statement of the locked region that touches the field
// (locked-late), given up before the last one (unlocked-early), taken
// shared around a write (other-mode), and the access moved into a
// goroutine.
var guardedOps = []string{mutant.OpLockDeleted, mutant.OpOutOfScope, mutant.OpLockedLate, mutant.OpUnlockedEarly, mutant.OpOtherMode, opIntoGoroutine}

var _ mutate.Rule = (*Rule)(nil)

// Mutants implements mutate.Rule. The host of a revert is the first
// function (exported first: where the analysis reports a need it cannot
// pass on, the finding lands in the mutated function) whose outermost
// block takes the lock, directly or by a helper, and then touches the
// field; then one that does so in a nested block or clause.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	if inv.Field.Pkg != p.Pkg.PkgPath {
		return nil
	}
	field, err := p.Scope.Var(*inv.Field)
	if err != nil || !field.IsField() {
		return nil // unverifiable: the baseline run reports it
	}
	owner, err := p.Scope.Owner(*inv.Field)
	if err != nil {
		return nil
	}
	lock := mutantLock(p, owner, inv, r.Lock.Raw)
	if lock == nil {
		return nil
	}
	// The package's helpers that take or give up the lock (net/http's
	// cr.lock(), defer cr.unlock()), found once for every revert of the
	// field: finding them analyses each function that locks.
	helpers := lockHelpersOf(p, lock)
	readOnly := readOnlyField(p, field)
	var out []*mutant.Mutant
	for _, op := range guardedOps {
		var m *mutant.Mutant
		switch {
		case readOnly == "":
			m = r.mutant(p, inv, field, lock, helpers, op)
		case op == mutant.OpOutOfScope:
			// The one revert that matters for a field read only: a
			// write of it without the lock.
			m = outOfScopeWrite(p, inv, field, lock, helpers)
		default:
			m = mutant.VoidMutant(inv, inv.Field.Short(), op, "equivalent: "+readOnly)
		}
		m.Site.Callee = calleeName(p, m.Target)
		out = append(out, m)
	}
	return out
}

// calleeName is the mutated function as findings name it, for the
// prover's kill at a caller (mutant.Site.Callee): a revert in a function
// whose callers can hold the lock makes it need the lock of them, and
// the analysis reports that need at the callers (or the exported entry)
// that do not hold it, naming the function on the call path.
func calleeName(p *mutate.Package, target string) string {
	if target == "" {
		return ""
	}
	for _, f := range p.Pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || mutate.KeyOf(fd).String() != target {
				continue
			}
			if fn, ok := p.Pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				return rule.FuncName(fn)
			}
		}
	}
	return ""
}

// mutant builds one revert.
func (r *Rule) mutant(p *mutate.Package, inv *invariants.Invariant, field, lock *types.Var, helpers lockHelpers, op string) *mutant.Mutant {
	write := op == mutant.OpOtherMode
	if write && !isRWMutex(lock.Type()) {
		return mutant.VoidMutant(inv, inv.Field.Short(), op, r.Lock.Raw+" is a sync.Mutex: it has one mode")
	}
	t := touch{field: field}
	hosts := hostsOf(p, t, lock, helpers, write)
	if len(hosts) == 0 {
		// The field is touched only in helpers whose callers hold the
		// lock: the reverts are made around a call of one.
		t = helpersOf(p, field, lock)
		hosts = hostsOf(p, t, lock, helpers, write)
	}
	if op == opIntoGoroutine {
		for _, h := range hosts {
			if m := intoGoroutine(p, inv, h, t); m.Void == "" {
				return m
			}
		}
	}
	if len(hosts) == 0 {
		why := "no function takes " + r.Lock.Raw + " with a lock statement and then touches " + field.Name()
		if write {
			why = "no function takes " + r.Lock.Raw + " exclusive with a lock statement and then writes " + field.Name()
		}
		return mutant.VoidMutant(inv, inv.Field.Short(), op, why)
	}
	if op == mutant.OpOutOfScope {
		for _, h := range hosts {
			if m := outOfScope(p, inv, h, t, false); m.Void == "" {
				return m
			}
		}
	}
	switch op {
	case mutant.OpOutOfScope:
		return outOfScope(p, inv, hosts[0], t, false)
	case mutant.OpOtherMode:
		return otherMode(p, inv, hosts[0].d, lock)
	case opIntoGoroutine:
		return intoGoroutine(p, inv, hosts[0], t)
	case mutant.OpLockedLate, mutant.OpUnlockedEarly:
		return byField(p, inv, hosts, t, lock, op)
	}
	return p.HoldMutant(inv, hosts[0].s, lock, op)
}

// byField makes locked-late and unlocked-early as reverts of the field:
// the lock taken right after the first statement of the locked region
// that touches the field, or given up right before the last one (hold's
// placement, by the function's work, moves the lock across whatever
// statement does work first or last, often one that touches another field
// of the lock). The first host whose region touches the field outside a
// literal is taken.
func byField(p *mutate.Package, inv *invariants.Invariant, hosts []host, t touch, lock *types.Var, op string) *mutant.Mutant {
	for _, h := range hosts {
		var first, last ast.Stmt
		for _, st := range h.s.Held() {
			if t.in(p, h.d, st, false) == nil {
				continue
			}
			if first == nil {
				first = st
			}
			last = st
		}
		if first != nil {
			return p.HoldMutant(inv, h.s.Around(first, last), lock, op)
		}
	}
	return mutant.VoidMutant(inv, inv.Field.Short(), op, "no statement of the outermost block touches "+t.field.Name()+" while a function holds the lock there")
}

// mutantLock resolves the rule's lock in the field's package, as the
// analyzer does (resolveLock).
func mutantLock(p *mutate.Package, owner *types.TypeName, inv *invariants.Invariant, raw string) *types.Var {
	if !strings.ContainsAny(raw, "./()*") {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(owner.Type()), true, owner.Pkg(), raw)
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return v
		}
	}
	module := ""
	if inv.File != nil {
		module = inv.File.Module
	}
	n, err := invariants.ParseName(raw, module, inv.Field.Pkg)
	if err != nil {
		return nil
	}
	v, err := p.Scope.Var(n)
	if err != nil {
		return nil
	}
	return v
}

// lockHelpers are the package's functions that take the lock for their
// caller (acquire) and that give it up (release), as mutate.LockHelpers
// finds them.
type lockHelpers struct{ acquire, release []*types.Func }

func lockHelpersOf(p *mutate.Package, lock *types.Var) lockHelpers {
	acquire, release := p.LockHelpers(lock)
	return lockHelpers{acquire, release}
}

// host is a function that takes the lock and then touches the field.
type host struct {
	s mutate.LockSite
	d *ast.FuncDecl
}

// hostsOf lists the functions a revert may be made in: exported ones
// first, then the others, each in source order.
func hostsOf(p *mutate.Package, t touch, lock *types.Var, helpers lockHelpers, write bool) []host {
	var out []host
	modes := []invariants.LockMode{invariants.Exclusive, invariants.Shared}
	if write {
		modes = modes[:1]
	}
	// The lock is followed once per mode, and only the functions that
	// select the field at all are analysed: a package such as net/http
	// has thousands of functions and dozens of guarded fields, and
	// analysing each function's lock state for every field and revert
	// kept the generation of a corpus's mutants from ending.
	follow := map[invariants.LockMode]*locks.Followed{}
	// A lock taken or given up by a helper of the package is followed
	// through it, so that a function that locks that way hosts reverts
	// too.
	for _, mode := range modes {
		follow[mode] = p.Follow(lock, mode, helpers.acquire)
		follow[mode].Releasers = helpers.release
	}
	// Hosts whose outermost block takes the lock come first; then those
	// that take it in a nested block or clause only.
	for _, nested := range []bool{false, true} {
		for _, exported := range []bool{true, false} {
			for _, d := range p.SortedDecls() {
				if d.Name.IsExported() != exported || d.Body == nil || !t.mentioned(p, d.Body) {
					continue
				}
				if h, ok := hostIn(p, d, t, follow, modes, write, nested); ok {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// hostIn makes d a host when a lock statement of its outermost block, or
// with nested of a nested block or clause (a lock taken in a loop's body,
// in an else, in a select case: yamux's send, database/sql's
// noteUnusedDriverStatement), is followed by an access of the field: in
// the function for the outermost block, in the rest of its own list for
// a nested one (past its block the lock is no longer the one taken
// there).
func hostIn(p *mutate.Package, d *ast.FuncDecl, t touch, follow map[invariants.LockMode]*locks.Followed, modes []invariants.LockMode, write, nested bool) (host, bool) {
	lists, touches := [][]ast.Stmt{d.Body.List}, touchesAfter
	if nested {
		touches = touchesHeld
		// Inner lists before the lists that hold them: an access under
		// a lock taken again inside the region (unique's cleanup takes
		// parent.mu in a loop inside the block that took i.mu) is held
		// by that inner lock, and a revert of the outer one leaves it
		// locked.
		lists = mutate.StmtLists(d)
		slices.Reverse(lists)
	}
	for _, list := range lists {
		for _, mode := range modes {
			s, ok := p.FindLockIn(d, list, follow[mode])
			if !ok {
				continue
			}
			if !touches(p, d, t, s, write) {
				continue
			}
			r := regionOf(p, d, t, s, follow[mode])
			if t.helpers != nil && !regionCalls(p, d, t, r, write) {
				// The call is under another lock statement, one
				// the list does not take.
				continue
			}
			return host{r, d}, true
		}
	}
	return host{}, false
}

// touchesHeld reports whether a statement of the site's list after its
// lock touches the field (writes it, when write is set).
func touchesHeld(p *mutate.Package, d *ast.FuncDecl, t touch, s mutate.LockSite, write bool) bool {
	list := s.List()
	at := slices.Index(list, s.Lock())
	return at >= 0 && slices.ContainsFunc(list[at+1:], func(st ast.Stmt) bool { return t.in(p, d, st, write) != nil })
}

// regionOf is the site of the locked region that holds the first
// statement of the site's list after the lock that touches the field:
// a function that releases the lock and takes it again before touching
// the field (httputil's ClientConn.Read reads lastbody under its second
// cc.mu.Lock()) is reverted there, not at its first lock, whose revert
// leaves the field locked by the later one.
func regionOf(p *mutate.Package, d *ast.FuncDecl, t touch, s mutate.LockSite, lk *locks.Followed) mutate.LockSite {
	list := s.List()
	from := slices.Index(list, s.Lock())
	if from < 0 {
		return s
	}
	for _, st := range list[from+1:] {
		if t.in(p, d, st, false) == nil {
			continue
		}
		if r, ok := p.FindLockBefore(d, list, lk, st); ok {
			return r
		}
		break
	}
	return s
}

// selects reports whether a body selects the field anywhere, literals
// included: the cheap test before a function's lock state is analysed.
func selects(p *mutate.Package, body *ast.BlockStmt, field *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if s := p.Pkg.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal && s.Obj().(*types.Var).Origin() == field {
				found = true
			}
		}
		return true
	})
	return found
}

// touchesAfter reports whether the function touches the field (writes
// it, when write is set) after the lock statement of its site.
func touchesAfter(p *mutate.Package, d *ast.FuncDecl, t touch, s mutate.LockSite, write bool) bool {
	from := lockPos(d, s)
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if st, ok := n.(ast.Stmt); ok && st.Pos() > from {
			if t.in(p, d, st, write) != nil {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// lockPos is where the site's lock statement ends.
func lockPos(d *ast.FuncDecl, s mutate.LockSite) token.Pos {
	if st := s.Lock(); st != nil {
		return st.End()
	}
	return d.Body.Pos()
}

// accessIn returns an access of the field directly in a statement of d
// (not in a literal) in code that runs, a write when write is set. An
// access in dead code (under a constant false condition, after a return)
// is none: the check never sees it run, so a revert around it reverts
// nothing (database/sql's DB.lastPut is touched only under the constant
// false debugGetPut).
func accessIn(p *mutate.Package, d *ast.FuncDecl, st ast.Stmt, field *types.Var, write bool) *ast.SelectorExpr {
	info := p.Pkg.TypesInfo
	// Atomic loads need no lock: reverting the lock around one reverts
	// nothing the rule asks for.
	loads := map[ast.Expr]bool{}
	ast.Inspect(st, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Load") {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && isAtomic(s.Recv()) {
				loads[ast.Unparen(sel.X)] = true
			}
		}
		return true
	})
	var out *ast.SelectorExpr
	ast.Inspect(st, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if s := info.Selections[n]; s != nil && s.Kind() == types.FieldVal && s.Obj().(*types.Var).Origin() == field && !loads[n] && !deadInDecl(p, d, n.Pos()) {
				if !write || writesIn(st, n) {
					out = n
				}
			}
		}
		return true
	})
	return out
}

// writesIn reports whether a statement assigns or increments sel (or an
// element of it), or deletes from it.
func writesIn(st ast.Stmt, sel *ast.SelectorExpr) bool {
	root := func(e ast.Expr) ast.Expr {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			default:
				return x
			}
		}
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		for _, l := range st.Lhs {
			if root(l) == sel {
				return true
			}
		}
	case *ast.IncDecStmt:
		return root(st.X) == sel
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok && len(call.Args) > 0 {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "delete" {
				return ast.Unparen(call.Args[0]) == sel
			}
		}
	}
	return false
}

func isRWMutex(t types.Type) bool {
	n, ok := types.Unalias(locks.Deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "RWMutex"
}

// otherMode takes the lock shared (RLock, RUnlock) where the function
// takes it exclusive around a write.
func otherMode(p *mutate.Package, inv *invariants.Invariant, d *ast.FuncDecl, lock *types.Var) *mutant.Mutant {
	e := mutate.NewEdits(p)
	n := 0
	ast.Inspect(d.Body, func(x ast.Node) bool {
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		call, ok := x.(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Lock" && sel.Sel.Name != "Unlock") {
			return true
		}
		if s := p.Pkg.TypesInfo.Selections[sel]; s == nil || !isRWMutex(s.Recv()) {
			return true
		}
		e.ReplaceNode(sel.Sel, "R"+sel.Sel.Name) // Lock: RLock, Unlock: RUnlock
		n++
		return true
	})
	void := ""
	if n == 0 {
		void = fmt.Sprintf("no Lock or Unlock call of %s to make shared", lock.Name())
	}
	return mutate.NewMutant(inv, p, d, mutant.OpOtherMode, e, void)
}

// intoGoroutine wraps the first statement of the lock's block that
// touches the field, after the lock, in a goroutine: an expression
// statement, an assignment to existing variables or an increment.
func intoGoroutine(p *mutate.Package, inv *invariants.Invariant, h host, t touch) *mutant.Mutant {
	d := h.d
	e := mutate.NewEdits(p)
	void := "no statement of the lock's block after the lock touches " + t.field.Name() + " and can move into a goroutine"
	locked := false
	for _, st := range h.s.List() {
		if !locked {
			locked = st == h.s.Lock()
			continue
		}
		movable := false
		switch st := st.(type) {
		case *ast.ExprStmt, *ast.IncDecStmt:
			movable = true
		case *ast.AssignStmt:
			movable = st.Tok != token.DEFINE
		}
		if movable && t.in(p, d, st, false) != nil {
			e.ReplaceNode(st, "go func() { "+p.Text(st)+" }()")
			void = ""
			break
		}
	}
	return mutate.NewMutant(inv, p, d, opIntoGoroutine, e, void)
}

// Vacuity implements mutate.Rule: a field that no function of its
// package touches in code that runs constrains nothing there.
func (r *Rule) Vacuity(p *mutate.Package, inv *invariants.Invariant) []string {
	if inv.Field.Pkg != p.Pkg.PkgPath {
		return nil
	}
	field, err := p.Scope.Var(*inv.Field)
	if err != nil {
		return nil
	}
	for _, d := range p.Decls {
		if d.Body != nil && accessIn(p, d, d.Body, field, false) != nil {
			return nil
		}
	}
	return []string{fmt.Sprintf("no function of package %s reads or writes %s in code that runs", p.Pkg.PkgPath, inv.Field.Short())}
}

// outOfScope copies the first access of the field after the lock, when
// its value is the receiver, a parameter or reached from one, to right
// before the lock statement: as a write when the statement writes it or
// asWrite is set.
func outOfScope(p *mutate.Package, inv *invariants.Invariant, h host, t touch, asWrite bool) *mutant.Mutant {
	d, field := h.d, t.field
	e := mutate.NewEdits(p)
	void := "no access of " + field.Name() + " after the lock is on the receiver or a parameter"
	list := h.s.List()
	lockAt := slices.Index(list, h.s.Lock())
	if lockAt < 0 {
		return mutate.NewMutant(inv, p, d, mutant.OpOutOfScope, e, "no lock statement in the host's block")
	}
	params := map[types.Object]bool{}
	sig := p.Pkg.TypesInfo.Defs[d.Name].(*types.Func).Signature()
	if r := sig.Recv(); r != nil {
		params[r] = true
	}
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = true
	}
	for _, st := range list[lockAt+1:] {
		if t.helpers != nil {
			// A helper's call, as a statement of its own, moved
			// before the lock.
			call, ok := t.in(p, d, st, false).(*ast.CallExpr)
			if es, isExpr := st.(*ast.ExprStmt); !ok || !isExpr || ast.Unparen(es.X) != call {
				continue
			}
			lock := list[lockAt]
			e.Insert(lock.Pos(), p.Text(st)+"\n"+p.Indent(lock.Pos()))
			e.ReplaceNode(st, "")
			void = ""
			break
		}
		sel := accessIn(p, d, st, field, false)
		if sel == nil || !params[rootObj(p.Pkg.TypesInfo, sel.X)] {
			continue
		}
		x := p.Text(sel)
		stmt := "_ = " + x
		if asWrite || writesIn(st, sel) {
			stmt = x + " = " + x
		}
		lock := list[lockAt]
		e.Insert(lock.Pos(), stmt+"\n"+p.Indent(lock.Pos()))
		void = ""
		break
	}
	return mutate.NewMutant(inv, p, d, mutant.OpOutOfScope, e, void)
}

// rootObj is the variable an expression of fields and pointers starts
// from, or nil.
func rootObj(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x]
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
