package native

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// HoldOps are the reverts of a guard that holds a lock for a body: the
// Go lock reverts that have a spelling here, the two that only guard
// objects and bindings have (let-underscore, other-mode), then the
// statement reverts applied to the guard's declaration.
var HoldOps = []string{
	mutant.OpLockDeleted, mutant.OpEmptySection, mutant.OpLetUnderscore, mutant.OpNestedScope,
	mutant.OpUnlockedEarly, mutant.OpAnotherLock, mutant.OpOtherMode, mutant.OpLockedLate, mutant.OpLockOneBranch,
	mutant.OpLineComment, mutant.OpBlockComment, mutant.OpCompiledOut, mutant.OpIfFalse, mutant.OpAfterReturn,
	mutant.OpMoved, mutant.OpClosure, mutant.OpString, mutant.OpGuardForgotten,
	mutant.OpUnlockDeleted, mutant.OpUnlockDeletedOnePath,
}

// GuardSite is how a target holds its lock, as the front end describes
// the body: the statement of its outermost block that declares the guard
// (Hold.Top[At]), and the statements around it.
type GuardSite struct {
	Fn   *treesitter.Function
	Hold *model.Hold
	At   int
	// Lock is the tokens of the locked expression the invariant names,
	// one of the guard's.
	Lock []string
	Mode invariants.LockMode
}

// otherModeMethod are Rust's lock methods with the method of the other
// mode, which other-mode rewrites them to (the C++ guard classes are in
// guardClasses).
var otherModeMethod = map[string]string{"lock": "read", "write": "read", "read": "write", "try_lock": "try_read", "try_write": "try_read", "try_read": "try_write"}

// GuardMutant builds one revert of a guard.
func (c *Code) GuardMutant(g GuardSite, op string) *mutant.Mutant {
	e := c.NewEdits()
	first, last := g.work()
	at := guardAt{fn: g.Fn, stmt: g.Hold.Top[g.At], lock: g.Lock, mode: g.Mode, firstWork: first, lastWork: last}
	if gd := at.stmt.Guard; gd.LockCall {
		// An explicit lock call's reverts rewrite the call, when it is
		// its statement's alone (`pthread_mutex_lock(&mu);`).
		if st, ok := stmtOf(g.Fn, gd.Node); ok && st.Alone(gd.Node) {
			at.call = gd.Node
		}
	}
	if at.stmt.Guard.Statement && at.call == nil {
		b, why := boundSite(at, Stmt{Start: at.stmt.Node.Start, End: at.stmt.Node.End, Node: at.stmt.Node}, nil)
		if why == "" {
			why = c.boundGuardEdit(e, b, op)
		}
		return c.Mutant(g.Fn, op, e, why)
	}
	void := c.guardEdit(e, at, op)
	return c.Mutant(g.Fn, op, e, void)
}

// guardAt is a guard as its reverts rewrite it: its statement, the
// locked expression the invariant names, and the statements after it
// that the lock must cover (the first and the last that do work).
type guardAt struct {
	fn                  *treesitter.Function
	stmt                model.Stmt
	lock                []string
	mode                invariants.LockMode
	firstWork, lastWork *syntax.Node
	// call is the lock call when the guard is an explicit one
	// (`pthread_mutex_lock(&mu);`, `mu.lock();`), whose statement is stmt.
	call *syntax.Node
}

// otherModeCall is the lock call of the other mode, for the calls that
// have one.
var otherModeCall = map[string]string{
	"lock": "lock_shared", "lock_shared": "lock",
	"pthread_rwlock_wrlock": "pthread_rwlock_rdlock", "pthread_rwlock_rdlock": "pthread_rwlock_wrlock",
}

// lockCallEdit records the reverts of an explicit lock call that its
// statement is not spelled for as a guard's declaration is; it returns
// "-" for the reverts that are the same for both (deleted, taken late, on
// one branch, the statement reverts).
func (c *Code) lockCallEdit(e *Edits, g guardAt, s Stmt, op string) string {
	f := g.fn.File
	name := calleeName(g.call)
	release, ok := releaseOf(f, g.call)
	switch op {
	case mutant.OpEmptySection:
		if !ok {
			return "no unlock call is known for the lock call"
		}
		e.Insert(f, s.End, " "+release)
		return ""
	case mutant.OpNestedScope:
		return "a block does not release an explicit lock call"
	case mutant.OpUnlockDeleted, mutant.OpUnlockDeletedOnePath:
		return c.unlockDeleted(e, g, op)
	case mutant.OpGuardForgotten:
		return "an explicit lock call has no guard to give up"
	case mutant.OpUnlockedEarly:
		if !ok {
			return "no unlock call is known for the lock call"
		}
		if g.lastWork == nil {
			return "no statement after the lock call does work"
		}
		e.Insert(f, g.lastWork.Start, release+"\n"+lineIndent(f.Src, g.lastWork.Start))
		return ""
	case mutant.OpAnotherLock:
		ls := leaves(g.call)
		i, j, found := findTokens(f, ls, g.lock)
		if !found {
			return "the locked expression is not found in the lock call"
		}
		e.Replace(f, ls[i].Start, ls[j-1].End, otherMuC)
		if f.Text(name) == "pthread_mutex_lock" {
			def := outerDef(g.fn)
			e.Insert(f, def.Start, "static pthread_mutex_t "+otherMuC+" = PTHREAD_MUTEX_INITIALIZER;\n"+lineIndent(f.Src, def.Start))
		}
		return ""
	case mutant.OpOtherMode:
		other := otherModeCall[f.Text(name)]
		if other == "" {
			return "the lock call has no other mode"
		}
		e.ReplaceNode(f, name, other)
		return ""
	}
	return "-"
}

// calleeName returns the last name of a call's callee: `lock` in
// `mu.lock()`, `pthread_mutex_lock` in `pthread_mutex_lock(&mu)`.
func calleeName(call *syntax.Node) *syntax.Node {
	fe := call.Child("function")
	if fe == nil {
		return nil
	}
	ls := leaves(fe)
	if len(ls) == 0 {
		return nil
	}
	return ls[len(ls)-1]
}

// guardEdit records the edit of one guard revert, or returns why it
// cannot be made.
func (c *Code) guardEdit(e *Edits, g guardAt, op string) string {
	d := c.Dialect()
	fn, f := g.fn, g.fn.File
	top := g.stmt
	s := Stmt{Start: top.Node.Start, End: top.Node.End, Node: top.Node}
	if d.Rust() {
		s.Start = attrsStart(top.Node)
	}
	text := s.Text(fn)
	if g.call != nil {
		if why := c.lockCallEdit(e, g, s, op); why != "-" {
			return why
		}
	}
	// The reverts that rewrite the declaration itself need it taken
	// apart; the others do not.
	parts, why := guardParts(f, top)
	switch op {
	case mutant.OpEmptySection, mutant.OpLetUnderscore, mutant.OpUnlockedEarly, mutant.OpAnotherLock, mutant.OpOtherMode, mutant.OpGuardForgotten:
		if why != "" {
			return why
		}
	case mutant.OpUnlockDeleted, mutant.OpUnlockDeletedOnePath:
		return "a guard unlocks at the end of its scope: there is no unlock call to delete"
	}
	firstWork, lastWork := g.firstWork, g.lastWork
	replace := func(t string) string {
		e.Replace(f, s.Start, s.End, t)
		return ""
	}
	switch op {
	case mutant.OpLockDeleted:
		return replace("")
	case mutant.OpEmptySection:
		if d.Rust() {
			return replace(parts.value + ";")
		}
		return replace(parts.typ + "{" + parts.args + "};")
	case mutant.OpLetUnderscore:
		return replace("let _ = " + parts.value + ";")
	case mutant.OpNestedScope:
		return replace("{ " + text + " }")
	case mutant.OpUnlockedEarly:
		if lastWork == nil {
			return "no statement after the guard does work"
		}
		if top.Guard.Name == "" {
			// `let v = &*m.lock().unwrap();`: drop(v) drops the
			// reference, and the temporary the let extends stays.
			return "the guard is a temporary the let extends: no name drops it"
		}
		release := "drop(" + top.Guard.Name + ");"
		if !d.Rust() {
			// A lock_guard cannot unlock; the revert that unlocks
			// early makes it a unique_lock first (releaseCall).
			call, why := c.releaseCall(e, g, op)
			if why != "" {
				return why
			}
			release = call
		}
		e.Insert(f, lastWork.Start, release+"\n"+lineIndent(f.Src, lastWork.Start))
		return ""
	case mutant.OpAnotherLock:
		// In the value or the arguments: the guard's own name may be the
		// mutex's (`let mut files = files.lock().unwrap();`).
		i, j, ok := findTokens(f, parts.leaves[parts.valueAt:], g.lock)
		if !ok {
			return "the locked expression is not found in the guard"
		}
		i, j = i+parts.valueAt, j+parts.valueAt
		if d.Rust() {
			e.Replace(f, parts.leaves[i].Start, parts.leaves[j-1].End, otherMuRust)
			typ := "Mutex"
			if parts.method != nil && parts.method.text(f) != "lock" && parts.method.text(f) != "try_lock" {
				typ = "RwLock"
			}
			e.Insert(f, len(f.Src), "\n#[allow(dead_code)]\nstatic "+otherMuRust+": std::sync::"+typ+"<()> = std::sync::"+typ+"::new(());\n")
			return ""
		}
		mu, why := parts.otherMutex(f, g.mode == invariants.Shared)
		if why != "" {
			return why
		}
		e.Replace(f, parts.leaves[i].Start, parts.leaves[j-1].End, otherMuC)
		def := outerDef(fn)
		e.Insert(f, def.Start, "static inline "+mu+" "+otherMuC+";\n"+lineIndent(f.Src, def.Start))
		return ""
	case mutant.OpOtherMode:
		if d.Rust() {
			if parts.method == nil {
				return "the guard's lock call is not found"
			}
			e.ReplaceNode(f, parts.method.node, otherModeMethod[parts.method.text(f)])
			return ""
		}
		other, why := parts.otherClass(f)
		if why != "" {
			return why
		}
		e.ReplaceNode(f, parts.word.node, other)
		return ""
	case mutant.OpLockedLate:
		if firstWork == nil {
			return "no statement after the guard does work"
		}
		if _, isValue := returnValue(f, firstWork); isValue && d.Rust() && firstWork.Kind != "expression_statement" {
			return "the first statement that does work is the body's value, which nothing can follow"
		}
		replace("")
		e.Insert(f, firstWork.End, "\n"+lineIndent(f.Src, firstWork.Start)+text)
		return ""
	case mutant.OpLockOneBranch:
		return replace(d.OneBranch(text))
	case mutant.OpGuardForgotten:
		if top.Guard.Name == "" {
			return "the guard has no name to give up"
		}
		forget := "std::mem::forget(" + top.Guard.Name + ");"
		if !d.Rust() {
			// lock_guard has no release; the revert makes it a
			// unique_lock first, as unlocked-early does.
			call, why := c.releaseCall(e, g, op)
			if why != "" {
				return why
			}
			forget = call
		}
		e.Insert(f, s.End, "\n"+lineIndent(f.Src, s.Start)+forget)
		return ""
	}
	return c.stmtEdit(e, fn, s, nil, op)
}

// work returns the first and the last statement after the guard that do
// work, by the rules' one definition of work (model.Work).
func (g GuardSite) work() (first, last *syntax.Node) {
	for _, st := range g.Hold.Top[g.At+1:] {
		if st.Kind == model.Work {
			if first == nil {
				first = st.Node
			}
			last = st.Node
		}
	}
	return first, last
}

// leaf is a token of a guard's declaration.
type leaf struct{ node *syntax.Node }

func (l leaf) text(f *syntax.File) string {
	if l.node == nil {
		return ""
	}
	return f.Text(l.node)
}

// guardDecl is a guard declaration taken apart into what the reverts
// rewrite. C++: `TYPE NAME(ARGS);` or `TYPE NAME{ARGS};`, with the guard
// type's word (lock_guard ...) and its mutex type argument. Rust: `let
// NAME = VALUE;`, with the lock method (lock, read, write).
type guardDecl struct {
	leaves    []*syntax.Node
	typ, args string
	word      leaf
	ns        string // the namespace the type is written in: "absl::", ""
	mutexType string
	value     string
	method    *leaf
	// valueAt is the first leaf of the value (Rust) or of the arguments
	// (C++).
	valueAt int
}

// guardParts takes a guard statement apart, or says why it cannot.
func guardParts(f *syntax.File, st model.Stmt) (guardDecl, string) {
	ls := leaves(st.Node)
	p := guardDecl{leaves: ls}
	rust := f.Lang == "rust"
	if rust && st.Guard.Statement && st.Node == st.Guard.Node {
		// A guard bound by a pattern: st is its lock call (boundAt.declAt).
		p.method = lockMethod(f, ls)
		return p, ""
	}
	if len(ls) < 2 || f.Text(ls[len(ls)-1]) != ";" {
		return p, "the guard is not a declaration ending in ;"
	}
	if rust {
		for i, l := range ls {
			if f.Text(l) == "=" {
				p.valueAt = i + 1
				end := ls[len(ls)-1].Start
				if v := st.Node.Child("value"); v != nil {
					end = v.End // before the else of a `let .. else`
				}
				p.value = strings.TrimSpace(string(f.Src[l.End:end]))
				p.method = lockMethod(f, ls[i+1:])
				return p, ""
			}
		}
		return p, "the guard binding has no value"
	}
	name := st.Guard.Name
	for i := 0; i+1 < len(ls); i++ {
		if f.Text(ls[i]) != name {
			continue
		}
		// TYPE NAME(ARGS); or TYPE NAME{ARGS};, the type before the name;
		// or auto NAME = TYPE(ARGS); (or {ARGS}), the type after it.
		open, from, to := i+1, 0, i
		if f.Text(ls[i+1]) == "=" {
			from = i + 2
			for open = from; open < len(ls) && f.Text(ls[open]) != "(" && f.Text(ls[open]) != "{"; open++ {
				if f.Text(ls[open]) == "<" {
					open = closing(f, ls, open)
				}
			}
			if open >= len(ls)-2 {
				continue
			}
			to = open
		} else if f.Text(ls[i+1]) != "(" && f.Text(ls[i+1]) != "{" {
			continue
		}
		p.valueAt = open + 1
		p.typ = strings.TrimSpace(string(f.Src[ls[from].Start:ls[to].Start]))
		if from == 0 {
			p.typ = strings.TrimSpace(string(f.Src[st.Node.Start:ls[i].Start]))
		}
		p.args = strings.TrimSpace(string(f.Src[ls[open].End:ls[len(ls)-2].Start]))
		// The class's name is the last name of the type outside its
		// template arguments (lock_guard in std::lock_guard<std::mutex>,
		// MutexLock in absl::MutexLock), its namespace what is before it.
		for k := from; k < to; k++ {
			switch t := f.Text(ls[k]); {
			case t == "<":
				m := closing(f, ls, k)
				if p.word.node != nil && p.mutexType == "" && m < to {
					p.mutexType = strings.TrimSpace(string(f.Src[ls[k].End:ls[m].Start]))
				}
				k = m
			case ls[k].Kind == "identifier" || ls[k].Kind == "type_identifier" || ls[k].Kind == "namespace_identifier":
				p.word, p.mutexType = leaf{ls[k]}, ""
				p.ns = strings.TrimSpace(string(f.Src[ls[from].Start:ls[k].Start]))
			}
		}
		if p.word.node == nil {
			return p, "the guard's type has no name"
		}
		if strings.Contains(p.mutexType, ",") {
			p.mutexType = "" // scoped_lock<A, B>: no one type to copy
		}
		return p, ""
	}
	return p, "the guard's declaration is not TYPE NAME(...), TYPE NAME{...} or auto NAME = TYPE(...)"
}

// lockMethod returns the first lock method called in ls (`lock` in
// `self.mu.lock().unwrap()`), the one other-mode rewrites, or nil.
func lockMethod(f *syntax.File, ls []*syntax.Node) *leaf {
	for k := 0; k+1 < len(ls); k++ {
		if f.Text(ls[k]) == "." && otherModeMethod[f.Text(ls[k+1])] != "" {
			return &leaf{ls[k+1]}
		}
	}
	return nil
}

// closing returns the index of the `>` that closes the template argument
// list opened at ls[open], or len(ls).
func closing(f *syntax.File, ls []*syntax.Node, open int) int {
	depth := 0
	for k := open; k < len(ls); k++ {
		switch f.Text(ls[k]) {
		case "<":
			depth++
		case ">":
			if depth--; depth == 0 {
				return k
			}
		case ">>":
			if depth -= 2; depth <= 0 {
				return k
			}
		}
	}
	return len(ls)
}

// ScopedOps are the reverts of a guard that holds a lock for one use of
// what it guards (the requires rule: each call of an operation in the
// scope of a guard): the guard deleted, made a temporary, bound to `_`,
// moved into a nested block, dropped or unlocked right before the use,
// another mutex, the other mode, taken after the use, taken on one branch,
// and the use moved out of the guard's scope.
var ScopedOps = []string{
	mutant.OpLockDeleted, mutant.OpEmptySection, mutant.OpLetUnderscore, mutant.OpNestedScope,
	mutant.OpUnlockedEarly, mutant.OpAnotherLock, mutant.OpOtherMode, mutant.OpLockedLate, mutant.OpLockOneBranch,
	mutant.OpOutOfScope,
}

// AccessSite is one use of what a lock guards, made where a guard holds
// the lock: the guard, the use (a call of an operation), the guard's
// locked expression the invariant names.
type AccessSite struct {
	Fn     *treesitter.Function
	Guard  *model.Guard
	Access *syntax.Node
	Lock   []string
	Mode   invariants.LockMode
}

// AccessMutant builds one revert of the guard that holds the lock for an
// access. The statement of the guard's block that holds the access is
// what the lock must cover: the guard is dropped right before it, or
// taken right after it, or it moves out of the guard's scope.
func (c *Code) AccessMutant(a AccessSite, op, suffix string) *mutant.Mutant {
	fn := a.Fn
	// The guard's statement: its declaration, or the statement of an
	// explicit lock call.
	gs, ok := stmtOf(fn, a.Guard.Node)
	if !ok {
		return c.Void(fn, op+suffix, "the guard is not a statement of the body")
	}
	if a.Guard.Statement && !a.Guard.LockCall {
		return c.boundAccessMutant(a, op, suffix)
	}
	var call *syntax.Node
	if gs.Node != a.Guard.Node {
		if !gs.Alone(a.Guard.Node) {
			return c.Void(fn, op+suffix, "the lock call is not a statement of its own")
		}
		call = a.Guard.Node
	}
	var use *syntax.Node
	for cur := a.Access; cur != nil; cur = cur.Parent {
		if cur.Parent == gs.Node.Parent {
			use = cur
			break
		}
	}
	if use == nil || use == gs.Node {
		return c.Void(fn, op+suffix, "the access is not in the guard's block")
	}
	e := c.NewEdits()
	if op == mutant.OpOutOfScope {
		return c.Mutant(fn, op+suffix, e, c.outOfScope(e, fn, a.Guard, gs, use))
	}
	g := guardAt{fn: fn, stmt: model.Stmt{Kind: model.GuardStmt, Node: gs.Node, Guard: a.Guard}, lock: a.Lock, mode: a.Mode, firstWork: use, lastWork: use, call: call}
	return c.Mutant(fn, op+suffix, e, c.guardEdit(e, g, op))
}

// outOfScope moves the statement that holds an access out of the guard's
// scope: after the block the guard holds the lock to the end of, or,
// when that block is the body (or the guard's statement is inside an #if
// of it, which does not end the scope) or ends in a return, before the
// guard.
func (c *Code) outOfScope(e *Edits, fn *treesitter.Function, g *model.Guard, gs Stmt, use *syntax.Node) string {
	f := fn.File
	s, ok := stmtOf(fn, use)
	if !ok || s.Node != use {
		return "the access is not a statement of the guard's block"
	}
	text := s.Text(fn)
	e.Delete(c, fn, s)
	block := g.Scope
	if block == nil {
		return "the guard holds nothing past its statement"
	}
	// After a block that returns, the access would be dead code, which
	// no rule judges: it goes before the guard then.
	if block == fn.Func.Body || block != gs.Node.Parent || endsAbruptly(block) {
		e.Insert(f, gs.Start, text+"\n"+lineIndent(f.Src, gs.Start))
		return ""
	}
	outer := block
	if outer.Parent != nil && outer.Parent.Kind == "expression_statement" {
		outer = outer.Parent // a Rust block statement
	}
	e.Insert(f, outer.End, "\n"+lineIndent(f.Src, outer.Start)+text)
	return ""
}

// endsAbruptly reports whether a block's last statement leaves it other
// than by its end: a return, throw, break, continue or goto, Rust's
// return, break and continue expressions.
func endsAbruptly(block *syntax.Node) bool {
	var last *syntax.Node
	for _, ch := range block.NamedChildren() {
		if !syntax.IsComment(ch) {
			last = ch
		}
	}
	if last == nil {
		return false
	}
	if last.Kind == "expression_statement" {
		if kids := last.NamedChildren(); len(kids) == 1 {
			last = kids[0]
		}
	}
	switch last.Kind {
	case "return_statement", "throw_statement", "break_statement", "continue_statement", "goto_statement",
		"return_expression", "break_expression", "continue_expression":
		return true
	}
	return false
}

// unlockDeleted deletes an unlock call of an explicit lock call's
// mutex, as Go's reverts of the release do: unlock-deleted the last one
// of the outermost block, which covers the returns after it;
// unlock-deleted-one-path another one right before a return (`unlock;
// return -1;`), the early return that forgets it. The unlock must be a
// statement of its own.
func (c *Code) unlockDeleted(e *Edits, g guardAt, op string) string {
	body := g.fn.Func.Body
	var last *Stmt
	var stmts []Stmt
	for _, r := range g.fn.Guards().Releases {
		if r.Guard != g.stmt.Guard.Name || r.Node.Start < g.call.End {
			continue
		}
		st, ok := stmtOf(g.fn, r.Node)
		if !ok || !st.Alone(r.Node) {
			continue
		}
		stmts = append(stmts, st)
		if st.Node.Parent == body {
			last = &stmts[len(stmts)-1]
		}
	}
	if op == mutant.OpUnlockDeleted {
		if last == nil {
			return "no unlock call of the mutex is a statement of the outermost block"
		}
		e.Delete(c, g.fn, *last)
		return ""
	}
	for _, st := range stmts {
		if last != nil && st.Node == last.Node {
			continue
		}
		if next := nextStmt(st.Node); next != nil && next.Kind == "return_statement" {
			e.Delete(c, g.fn, st)
			return ""
		}
	}
	return "no other unlock call of the mutex comes right before a return"
}

// nextStmt is the named statement after n in its block, comments aside.
func nextStmt(n *syntax.Node) *syntax.Node {
	after := false
	for _, s := range n.Parent.Children {
		switch {
		case s == n:
			after = true
		case after && s.Named && !syntax.IsComment(s):
			return s
		}
	}
	return nil
}
