package native

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// The reverts of a guard that holds its lock over a region of the
// statement that takes it (model.Guard.Statement): a Rust guard bound by
// the pattern of an `if let` or `while let`, in the arms of a `match`, a
// temporary of their scrutinee; a C++ guard declared in the
// init-statement of an `if` or a `switch`. Its statement is no
// declaration ending in `;`, so the reverts that rewrite one are written
// here, over the region, as real reverts of such code read: the lock
// deleted with its region kept, the lock taken as a temporary before the
// region, the guard dropped (unlocked) or forgotten (released) first in
// the region, in C++ declared after the region's first statement.

// boundAt is a guard bound by its statement, as its reverts rewrite it.
type boundAt struct {
	guardAt
	// owner is the statement that takes the guard: the if, while, match,
	// or C++ if or switch.
	owner Stmt
	// region is what the guard holds the lock over that the revert
	// rewrites: the block of an `if let` or `while let`, the value of the
	// match arm, the consequence of a C++ if, the case of a switch.
	region *syntax.Node
	// first is the first part of the region the lock must cover: its
	// first statement (hold), or the statement that holds the access
	// (requires); the region itself when it is one expression.
	first *syntax.Node
	// access says that the revert is relative to one access (requires,
	// guarded_by): a revert that keeps the access in the region reverts
	// nothing.
	access bool
}

// boundSite finds the region and its first part for a guard bound by its
// statement: relative to the access at, or to the region's start when at
// is nil. It returns why there is none.
func boundSite(g guardAt, owner Stmt, at *syntax.Node) (boundAt, string) {
	b := boundAt{guardAt: g, owner: owner, access: at != nil}
	scope := g.stmt.Guard.Scope
	switch scope.Kind {
	case "block":
		b.region = scope
	case "match_block":
		// Every arm holds the guard: the arm of the access, or the first.
		for _, arm := range scope.NamedChildren() {
			if arm.Kind == "match_arm" && (at == nil || arm.Contains(at)) {
				b.region = arm.Child("value")
				break
			}
		}
	case "match_arm":
		b.region = scope.Child("value")
	case "if_statement":
		// The consequence, or the else that holds the access: a C++
		// init-statement's guard holds both.
		b.region = scope.Child("consequence")
		if alt := scope.Child("alternative"); at != nil && alt != nil && alt.Contains(at) {
			for _, st := range alt.NamedChildren() {
				if !syntax.IsComment(st) {
					b.region = st
				}
			}
		}
	case "switch_statement":
		body := scope.Child("body")
		if body == nil {
			break
		}
		for _, cs := range body.NamedChildren() {
			if cs.Kind == "case_statement" && (at == nil || cs.Contains(at)) {
				b.region = cs
				break
			}
		}
	}
	if b.region == nil {
		return b, "the guard's region is not found"
	}
	if !regionHolds(b.region) {
		b.first = b.region
		return b, ""
	}
	for _, st := range b.region.NamedChildren() {
		if syntax.IsComment(st) || st.Field == "value" {
			continue // a case's label
		}
		if at == nil || st.Contains(at) {
			b.first = st
			break
		}
	}
	if b.first == nil {
		return b, "the guard's region has no statement"
	}
	return b, ""
}

// regionHolds reports whether a region is a list of statements (a block,
// a case) rather than one expression (a match arm's value).
func regionHolds(n *syntax.Node) bool {
	switch n.Kind {
	case "block", "compound_statement", "case_statement":
		return true
	}
	return false
}

// boundEdit records the revert op of a guard bound by its statement, or
// returns why it cannot be made; "-" for the reverts that are the same
// as those of any statement (the statement reverts of the owner, a C++
// declaration's own rewrites).
func (c *Code) boundEdit(e *Edits, b boundAt, op string) string {
	d := c.Dialect()
	f := b.fn.File
	gd := b.stmt.Guard
	rust := d.Rust()
	regionText := f.Text(b.region)
	if !regionHolds(b.region) {
		regionText = "{ " + regionText + " }"
	}
	// before puts a statement first in the region, before its first part.
	before := func(stmt string) {
		if regionHolds(b.region) {
			e.Insert(f, b.first.Start, stmt+"\n"+lineIndent(f.Src, b.first.Start))
			return
		}
		e.ReplaceNode(f, b.region, "{ "+stmt+" "+f.Text(b.region)+" }")
	}
	switch op {
	case mutant.OpLockDeleted:
		if rust {
			e.Replace(f, b.owner.Start, b.owner.End, regionText)
			return ""
		}
		e.ReplaceNode(f, gd.Node, "")
		return ""
	case mutant.OpEmptySection:
		if !rust {
			return "-" // the declaration made a temporary in the init-statement
		}
		v := scrutinee(gd.Node)
		if v == nil {
			return "the guard's scrutinee is not found"
		}
		e.Replace(f, b.owner.Start, b.owner.End, "{ "+f.Text(v)+"; "+regionText+" }")
		return ""
	case mutant.OpLetUnderscore:
		// `if let Ok(_) = m.lock()`, `match m.lock() { Ok(_) => .. }`:
		// the scrutinee's temporary lives through the region all the
		// same (both editions), so the lock is still held there.
		return "a pattern that binds nothing leaves the guard a temporary of the scrutinee, which lives through the region"
	case mutant.OpNestedScope:
		return "the guard's statement is a scope of its own: a block around it holds the same region"
	case mutant.OpLockOneBranch:
		if b.access {
			return "the access is in the guard's region: taken on one branch, the statement still holds the lock there"
		}
		return "-"
	case mutant.OpUnlockedEarly, mutant.OpGuardForgotten:
		if gd.Name == "" {
			return "the guard is a temporary of the scrutinee: no name gives it up"
		}
		if rust {
			call := "drop(" + gd.Name + ");"
			if op == mutant.OpGuardForgotten {
				call = "std::mem::forget(" + gd.Name + ");"
			}
			before(call)
			return ""
		}
		call, why := c.releaseCall(e, b.declAt(), op)
		if why != "" {
			return why
		}
		before(call)
		return ""
	case mutant.OpLockedLate:
		if rust {
			return "a guard bound by a pattern is taken by the statement that holds its region: it cannot be taken inside it"
		}
		if !regionHolds(b.region) {
			return "the guard's region is not a list of statements"
		}
		e.ReplaceNode(f, gd.Node, "")
		e.Insert(f, b.first.End, "\n"+lineIndent(f.Src, b.first.Start)+f.Text(gd.Node))
		return ""
	}
	return "-"
}

// boundAccessMutant builds one revert of a guard bound by its statement
// relative to one access in its region: the reverts of boundGuardEdit,
// and the access moved out of the region, before the statement that
// takes the guard.
func (c *Code) boundAccessMutant(a AccessSite, op, suffix string) *mutant.Mutant {
	fn, f := a.Fn, a.Fn.File
	owner, ok := stmtOf(fn, a.Guard.Scope)
	if c.Dialect().Rust() {
		owner, ok = stmtOf(fn, a.Guard.Node)
	}
	if !ok {
		return c.Void(fn, op+suffix, "the guard's statement is not a statement of the body")
	}
	g := guardAt{fn: fn, stmt: model.Stmt{Kind: model.GuardStmt, Node: owner.Node, Guard: a.Guard}, lock: a.Lock, mode: a.Mode}
	b, why := boundSite(g, owner, a.Access)
	e := c.NewEdits()
	if why != "" {
		return c.Mutant(fn, op+suffix, e, why)
	}
	b.firstWork, b.lastWork = b.first, b.first
	if op == mutant.OpOutOfScope {
		if !regionHolds(b.region) {
			// A match arm's value: the arm does nothing, and the
			// access runs before the match.
			e.ReplaceNode(f, b.region, "{}")
			e.Insert(f, owner.Start, f.Text(b.region)+";\n"+lineIndent(f.Src, owner.Start))
			return c.Mutant(fn, op+suffix, e, "")
		}
		s, ok := stmtOf(fn, b.first)
		if !ok || s.Node != b.first {
			return c.Mutant(fn, op+suffix, e, "the access is not a statement of the guard's region")
		}
		text := s.Text(fn)
		e.Delete(c, fn, s)
		e.Insert(f, owner.Start, text+"\n"+lineIndent(f.Src, owner.Start))
		return c.Mutant(fn, op+suffix, e, "")
	}
	return c.Mutant(fn, op+suffix, e, c.boundGuardEdit(e, b, op))
}

// boundGuardEdit records the revert op of a guard bound by its
// statement: those written for such guards (boundEdit), then the
// rewrites of the guard's own declaration or lock call (another mutex,
// the other mode, a C++ declaration made a temporary), then the
// statement reverts of the statement that takes it.
func (c *Code) boundGuardEdit(e *Edits, b boundAt, op string) string {
	if why := c.boundEdit(e, b, op); why != "-" {
		return why
	}
	switch op {
	case mutant.OpEmptySection, mutant.OpAnotherLock, mutant.OpOtherMode:
		return c.guardEdit(e, b.declAt(), op)
	}
	return c.guardEdit(e, b.guardAt, op)
}

// declAt is the guard with its declaration (C++) or lock call (Rust) as
// its statement, which the reverts that rewrite the guard itself take
// apart.
func (b boundAt) declAt() guardAt {
	g := b.guardAt
	g.stmt = model.Stmt{Kind: model.GuardStmt, Node: g.stmt.Guard.Node, Guard: g.stmt.Guard}
	return g
}

// scrutinee returns the value a Rust guard bound by a pattern is taken
// from: the value of the `if let`'s or `while let`'s condition, or of
// the match, that holds the lock call n.
func scrutinee(n *syntax.Node) *syntax.Node {
	for cur := n; cur != nil && cur.Parent != nil; cur = cur.Parent {
		if cur.Field == "value" && (cur.Parent.Kind == "let_condition" || cur.Parent.Kind == "match_expression") {
			return cur
		}
	}
	return nil
}
