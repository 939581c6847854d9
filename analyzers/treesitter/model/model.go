// Package model is what a language front end (cfamily, rustlang) tells the
// rules about a source file: its function definitions, and for one
// function its call sites with their liveness and its guard statements.
// The rules in the treesitter package work on these values only, so the
// same call, forbid and hold logic serves every language.
package model

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Config is what an invariant sets for the evaluation of a function.
type Config struct {
	// Defines are the macros (C family) or cfg options (Rust) in effect.
	Defines []invariants.Define
	// Runners are the functions the invariant declares (`runs:`) that
	// run the lambdas and closures they are passed before they return;
	// the front ends add their languages' own (std::call_once).
	Runners []invariants.Name
	// Acquire are helpers that return a guard of the rule's lock
	// (requires' `acquire:`): a local bound to their result is a guard.
	Acquire []invariants.Name
	// Locks are the tokens of the rule's lock patterns: binding a local
	// to one (`auto& m = detail::eval_mutex();`) touches nothing the lock
	// protects (core.LockAddress).
	Locks [][]string
	// Guards are the guard classes and LockCalls the lock calls the
	// invariants file declares beside the built-in ones (GuardModes,
	// LockMethods ...).
	Guards    []invariants.GuardType
	LockCalls invariants.LockCalls
	// ScopedGuards are the guard classes the code declares by its own
	// annotations (ScopedGuard), read from the job's files.
	ScopedGuards []ScopedGuard
}

// Lookup returns the values of a define, and whether it is set.
func (c *Config) Lookup(name string) ([]string, bool) {
	for _, d := range c.Defines {
		if d.Name == name {
			return d.Values, true
		}
	}
	return nil, false
}

// MaxScope is how many namespaces, classes, impls or modules deep the
// front ends look for definitions. Each definition's path is a copy of
// the scope around it, so following scopes nested n deep would cost n²;
// no real code nests a tenth as deep, and a definition below is not
// found, which fails closed ("not found").
const MaxScope = 1000

// Func is one function definition found in a file.
type Func struct {
	// Path is the qualified name: enclosing namespaces, classes, modules
	// or the impl's type, then the function's own name.
	Path []string
	// Node is the whole definition, Name its name and Body its block.
	Node, Name, Body *syntax.Node
}

// Matches reports whether the function's path ends with the scoped name:
// `Class::method` matches `ns::Class::method`, segment by segment. A
// leading `::` anchors the name at the file's top level.
func (f *Func) Matches(scoped []string) bool {
	anchored := len(scoped) > 0 && scoped[0] == ""
	if anchored {
		scoped = scoped[1:]
	}
	if len(scoped) > len(f.Path) || (anchored && len(scoped) != len(f.Path)) {
		return false
	}
	off := len(f.Path) - len(scoped)
	for i, s := range scoped {
		if f.Path[off+i] != s {
			return false
		}
	}
	return true
}

// Call is one call, method call or macro invocation in a function body.
type Call struct {
	Node *syntax.Node
	// Callee is the tokens of what is called (`enc . retain`, `msg_send !`)
	// and Tokens those of the whole call, arguments included.
	Callee, Tokens []string
	// Inner is the token tree of a Rust macro invocation, whose calls the
	// grammar does not parse: `assert!(enc.retain())`.
	Inner []string
	// Liveness says whether the call runs when the function runs; a call
	// inside a lambda or closure never called here may still run later.
	core.Liveness
}

// StmtKind classifies a top-level statement of a body for the hold rule.
type StmtKind int

// Statement kinds.
const (
	// NoWork statements may come before the guard: declarations without
	// a value or with a literal, empty statements, dead code, items.
	NoWork StmtKind = iota
	// Work is every other statement.
	Work
	// GuardStmt declares a guard that holds a lock to the end of the body.
	GuardStmt
)

// Stmt is one statement of the outermost block of a body.
type Stmt struct {
	Node  *syntax.Node
	Kind  StmtKind
	Guard *Guard // set for GuardStmt
}

// Guard is a guard object or guard binding that locks Lock.
type Guard struct {
	Node *syntax.Node
	// Name is the guard variable, "" for a temporary.
	Name string
	// Lock is the tokens of each locked expression (scoped_lock takes
	// several).
	Lock [][]string
	Mode invariants.LockMode
	// NotHeld says why this guard does not hold the lock for the body
	// ("a temporary is destroyed at the end of its statement"), or "".
	NotHeld string
	// Takes says that the guard takes its lock when its statement runs,
	// if only for that statement (a temporary, `let _ =`); false for a
	// guard built not to lock (std::defer_lock, std::try_to_lock, no
	// mutex) or one that adopts a lock already held (std::adopt_lock).
	Takes bool
	// Scope is the block to whose end a declared guard holds its lock;
	// nil for a guard that holds nothing past its own statement. For an
	// explicit lock call, the branch it is called in.
	Scope *syntax.Node
	// Statement says that the guard holds its lock over Scope only, a
	// part of the statement that takes it and not the rest of a block:
	// the consequence of a Rust `if let` or the body of a `while let`
	// whose pattern binds the guard, the arms of a `match` on a lock
	// call, a C++ `if` or `switch` whose init-statement declares it.
	Statement bool
	// RegionWork are, for a guard bound by its statement (Statement), the
	// statements of its region that do work (core.DoesWork), in order:
	// the work a release inside the region must not come before. The
	// front ends set it for a guard of the outermost block.
	RegionWork []*syntax.Node
	// LockCall says that the guard is an explicit lock call of the C
	// family (`pthread_mutex_lock(&mu)`), named after its mutex.
	LockCall bool
	// Liveness says whether the guard's statement runs (Hold.Add sets
	// it).
	core.Liveness
	// Acquire is the helper whose result the guard binds (Config.Acquire),
	// "" for a guard of the standard types; such a guard locks the rule's
	// lock in the rule's mode.
	Acquire string
	// ReleasedBy are the methods that release the guard before its scope
	// ends, other than unlock(): those of a class the code declares
	// (ScopedGuard, `section.Leave()`) or of a built-in one
	// (GuardReleases, `lock.Release()`).
	ReleasedBy []string
}

// Release is an explicit release of a named guard: `drop(g)`,
// `lk.unlock()`.
type Release struct {
	Node  *syntax.Node
	Guard string
}

// Hold is what the hold rule needs to know about a body.
type Hold struct {
	// Top is the live statements of the outermost block, in order.
	Top []Stmt
	// Other is every guard that is not a GuardStmt of Top: in a nested
	// block, a temporary, bound to `_`, in dead code.
	Other []*Guard
	// Releases is every live explicit release in the body.
	Releases []Release
	// Relocks is every live `lk.lock()` of a named guard (a
	// std::unique_lock taken again after an unlock), as releases.
	Relocks []Release
	// Leaks is every live call that gives up a named guard without
	// unlocking its lock, which then stays locked for good: Rust's
	// `mem::forget(g)`, `ManuallyDrop::new(g)`, `Box::leak(Box::new(g))`,
	// C++'s `lk.release()`.
	Leaks []Release
	// All is every guard of the body, in source order, whatever it
	// holds: the guards with their scopes, for the rules that ask what is
	// held at a point (requires, excludes, lock_order).
	All []*Guard
}

// Language is one front end.
type Language interface {
	// Functions lists the function definitions of a file that are live
	// under the configuration (not in `#if 0`, not under a false cfg).
	Functions(f *syntax.File, c *Config) []*Func
	// Calls lists every call site in the function's body.
	Calls(f *syntax.File, fn *Func, c *Config) []Call
	// Hold describes the function's guards.
	Hold(f *syntax.File, fn *Func, c *Config) *Hold
	// Pattern parses a token pattern written in the language and returns
	// its tokens.
	Pattern(src string) ([]string, error)
	// Exposed says why code outside the function's file can call it ("it
	// is not static", "it is pub"), or "" when only the file can: a
	// static function of a source file, one in an anonymous namespace, a
	// private Rust function of a file without out-of-line modules.
	Exposed(f *syntax.File, fn *Func) string
	// Liveness returns, for any node of the function's body, whether it
	// runs when the function runs, as for calls.
	Liveness(f *syntax.File, fn *Func, c *Config) func(n *syntax.Node) core.Liveness
	// PatternShape parses a pattern and says what it is.
	PatternShape(src string) (Shape, error)
	// Leaves reports whether a statement leaves the function and never
	// falls through: a return, a throw or panic, a call of a function
	// that never returns (not a break or continue, which stay in it).
	Leaves(f *syntax.File, n *syntax.Node) bool
	// Params lists the tokens of each parameter's type of a function,
	// without names and default values: what tells overloads apart.
	Params(f *syntax.File, fn *Func) [][]string
	// ParamPattern parses the parameter list written after a target's
	// name (`(Stream)`) into the same form.
	ParamPattern(src string) ([][]string, error)
	// Exits lists the live points where the function returns early or
	// late (return statements, Rust's `?`), leaving out those of lambdas
	// and closures, and reports whether the end of the body is reached.
	Exits(f *syntax.File, fn *Func, c *Config) (exits []*syntax.Node, fallsThrough bool)
	// Writes lists the writes of a field in the function: assignments,
	// increments, taking its address or a mutable reference, initialising
	// it in a constructor or struct literal of typ, mutating methods
	// called on it. Writes in lambdas and closures count as the function's.
	Writes(f *syntax.File, fn *Func, typ, field string, c *Config) []Write
}

// Write is one write of a field, with its liveness as for calls.
type Write struct {
	Node *syntax.Node
	// Liveness says whether the write runs; a write in a lambda or
	// closure never called here may still run later.
	core.Liveness
}

// Locks reports whether the guard locks the lock a pattern names.
func (g *Guard) Locks(pattern []string) bool {
	for _, l := range g.Lock {
		if MatchLock(l, pattern) {
			return true
		}
	}
	return false
}

// Add records one statement of a body for the hold rule: s is its
// liveness, top says whether it is a statement of the body's outermost
// block, g is the guard it declares (or nil) and work whether it does
// work (core.DoesWork). A guard counts for the body only as a live
// statement of the outermost block that holds its lock; every other guard
// is recorded with why it does not.
func (h *Hold) Add(n *syntax.Node, s core.Liveness, top bool, g *Guard, work bool) {
	if g != nil {
		g.Liveness = s
		h.All = append(h.All, g)
	}
	switch {
	case !s.Live():
		if g != nil {
			g.NotHeld = "it never runs: " + s.Dead
			h.Other = append(h.Other, g)
		}
	case top && g != nil && g.NotHeld == "":
		h.Top = append(h.Top, Stmt{Node: n, Kind: GuardStmt, Guard: g})
	case top:
		kind := NoWork
		if work {
			kind = Work
		}
		h.Top = append(h.Top, Stmt{Node: n, Kind: kind})
		if g != nil {
			h.Other = append(h.Other, g)
		}
	case g != nil:
		if g.NotHeld == "" {
			g.NotHeld = "it is declared in a nested block and released at the end of that block"
		}
		h.Other = append(h.Other, g)
	}
}
