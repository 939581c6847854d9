package treesitter

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// A function can say in its source that its callers hold a lock for its
// whole body: Clang's thread-safety annotations on its declaration or
// definition (`void Flush() EXCLUSIVE_LOCKS_REQUIRED(mu_);`, with the
// ABSL_ spellings, REQUIRES and REQUIRES_SHARED, and the attributes they
// expand to), or an assertion that it is held as a statement
// (`mu_.AssertHeld();`, `mu_->AssertReaderHeld();`), which holds from
// there to the end of its block. A function annotated as releasing a
// lock its callers hold (UNLOCK_FUNCTION, RELEASE) holds it up to its own
// unlock call, and a function annotated LOCK_RETURNED(mu_) (`mu()`)
// stands for the lock it returns. These are contracts, read by name like the guard idioms: a
// rule that asks where a lock is held (guarded_by) counts the lock held
// under them, and checks instead that the function's callers hold it.
//
// The annotations are read from the bytes before the invariant's macros
// are erased (an invariant over real code erases these macros, which the
// grammar cannot read): erasure keeps every offset, so the span of a
// declaration in the tree is its span in the source. An annotation on a
// declaration counts for every definition of that name in the same class
// (overloads are not told apart), and one on a declaration outside any
// class for the free functions of the name.

// Required is a lock a function holds by contract.
type Required struct {
	// Lock is the tokens of the lock expression (`mu_`, `& mu_`,
	// `arena -> mu`), in the function's language.
	Lock []string
	Mode invariants.LockMode
	// From is the offset in the function's file from which it is held:
	// the body's start for an annotation, the assertion's end for one;
	// Until the offset where it stops (a release function's own unlock
	// call), or 0: the end of the body.
	From, Until int
	// Branch is set for an assertion in a block of the body (a branch):
	// the lock is held there, but only the callers that reach the
	// branch are shown to hold it, so nothing binds the others.
	Branch bool
	// Why names the contract for messages: `EXCLUSIVE_LOCKS_REQUIRED(mu_)
	// at store.h:12`.
	Why string
	// Stated is the source text that states the contract, for a revert
	// that deletes it: the annotation, or the assertion's statement.
	Stated Span
}

// Span is a stretch of a file's text; File is nil when no text states
// what it is for (a lock held past a TryLock).
type Span struct {
	File       *syntax.File
	Start, End int
}

// requiresMacro matches a thread-safety annotation that a function's
// callers hold a lock, up to its opening parenthesis.
var requiresMacro = regexp.MustCompile(`\b(?:ABSL_)?(EXCLUSIVE_LOCKS_REQUIRED|SHARED_LOCKS_REQUIRED|LOCKS_REQUIRED|REQUIRES_SHARED|REQUIRES|exclusive_locks_required|shared_locks_required|requires_capability|requires_shared_capability|UNLOCK_FUNCTION|SHARED_UNLOCK_FUNCTION|RELEASE|RELEASE_SHARED|unlock_function|release_capability|release_shared_capability)\s*\(`)

// releaseMacros are the annotations of a function that gives up a lock
// its callers hold: held from its start to its own unlock call.
var releaseMacros = map[string]bool{"UNLOCK_FUNCTION": true, "SHARED_UNLOCK_FUNCTION": true, "RELEASE": true, "RELEASE_SHARED": true,
	"unlock_function": true, "release_capability": true, "release_shared_capability": true}

// returnedMacro matches Clang's annotation of a function that returns a
// lock (`Mutex* mu() LOCK_RETURNED(mu_)`), up to its parenthesis.
var returnedMacro = regexp.MustCompile(`\b(?:ABSL_)?(?:LOCK_RETURNED|RETURN_CAPABILITY|lock_returned)\s*\(`)

// assertMacro matches Clang's annotation of a function that asserts a
// lock held (`void AssertHeld() ASSERT_EXCLUSIVE_LOCK(mutex_)`).
var assertMacro = regexp.MustCompile(`\b(?:ABSL_)?(ASSERT_EXCLUSIVE_LOCK|ASSERT_SHARED_LOCK|ASSERT_CAPABILITY|ASSERT_SHARED_CAPABILITY|assert_exclusive_lock|assert_shared_lock|assert_capability|assert_shared_capability)\s*\(`)

// sharedMacros are the annotations that ask for the lock shared.
var sharedMacros = map[string]bool{"SHARED_LOCKS_REQUIRED": true, "REQUIRES_SHARED": true, "shared_locks_required": true, "requires_shared_capability": true,
	"SHARED_UNLOCK_FUNCTION": true, "RELEASE_SHARED": true, "release_shared_capability": true}

// assertions are the methods that assert a lock held, by the mode they
// assert.
var assertions = map[string]invariants.LockMode{
	"AssertHeld": invariants.Exclusive, "AssertExclusiveHeld": invariants.Exclusive, "AssertWriterHeld": invariants.Exclusive,
	"assert_held": invariants.Exclusive, "AssertReaderHeld": invariants.Shared, "AssertSharedHeld": invariants.Shared,
	"assert_reader_held": invariants.Shared, "assert_shared_held": invariants.Shared,
}

// LockContracts indexes the annotated declarations of a job's files.
type LockContracts struct {
	types *typeFiles
	// decls holds, by function name, the annotated declarations.
	decls map[string][]annotatedDecl
	// classes are the names of the classes and structs the files define.
	classes map[string]bool
	cache   map[*Function][]Required
	// returned holds, by function name, the lock a function returns
	// (LOCK_RETURNED); nil for a name whose declarations disagree.
	returned map[string][]string
	// asserted holds, by function name, the lock a function asserts
	// held (ASSERT_EXCLUSIVE_LOCK): a call of it is an assertion.
	asserted map[string]Required
}

// annotatedDecl is one declaration of a function with its annotations.
type annotatedDecl struct {
	class string // the class it is declared in, or ""
	reqs  []Required
}

// NewLockContracts reads the annotated declarations of the functions'
// files (typeFiles: headers of declarations alone too).
func NewLockContracts(fns []*Function) *LockContracts {
	lc := &LockContracts{decls: map[string][]annotatedDecl{}, classes: map[string]bool{}, cache: map[*Function][]Required{}, returned: map[string][]string{}, asserted: map[string]Required{}}
	if len(fns) == 0 {
		return lc
	}
	lc.types = fns[0].types
	for _, f := range typeFilesOf(fns) {
		raw := lc.types.rawOf(f)
		syntax.Walk(f.Root, func(n *syntax.Node) bool {
			switch n.Kind {
			case "class_specifier", "struct_specifier":
				if name := className(f, n); name != "" && n.Child("body") != nil {
					lc.classes[name] = true
				}
			case "compound_statement":
				// Declarations inside bodies are not members.
				return false
			case "function_definition":
				// Its annotations that callers hold a lock are read with
				// its function (Of); the lock it returns, here.
				if body := n.Child("body"); body != nil {
					if name := declaredFunction(f, n); name != "" {
						lc.readReturned(f, fns[0], raw[n.Start:body.Start], name)
						lc.readAsserted(f, fns[0], raw[n.Start:body.Start], name)
					}
				}
				return true
			case "field_declaration", "declaration":
				name := declaredFunction(f, n)
				if name == "" {
					return true
				}
				lc.readReturned(f, fns[0], raw[n.Start:n.End], name)
				lc.readAsserted(f, fns[0], raw[n.Start:n.End], name)
				if reqs := readRequires(f, fns[0], raw, n.Start, n.End, -1); len(reqs) > 0 {
					lc.decls[name] = append(lc.decls[name], annotatedDecl{class: enclosingClass(f, n), reqs: reqs})
				}
				return false
			}
			return true
		})
	}
	return lc
}

// readReturned records the lock a declaration of name says it returns.
func (lc *LockContracts) readReturned(f *syntax.File, fn *Function, span []byte, name string) {
	macroLocks(fn, span, returnedMacro, func(toks []string, _ []int) {
		if old, ok := lc.returned[name]; ok && joinTokens(old) != joinTokens(toks) {
			toks = nil // two functions of the name return different locks
		}
		lc.returned[name] = toks
	})
}

// readAsserted records the lock a declaration of name says it asserts.
func (lc *LockContracts) readAsserted(f *syntax.File, fn *Function, span []byte, name string) {
	macroLocks(fn, span, assertMacro, func(toks []string, m []int) {
		mode := invariants.Exclusive
		if strings.Contains(strings.ToLower(string(span[m[2]:m[3]])), "shared") {
			mode = invariants.Shared
		}
		lc.asserted[name] = Required{Lock: toks, Mode: mode}
	})
}

// macroLocks calls each with the lock that every use of macro (a pattern
// ending at its opening parenthesis) in span names, as the tokens of its
// argument, and the use's submatch indexes; a use whose argument does
// not close or does not read as a pattern is skipped.
func macroLocks(fn *Function, span []byte, macro *regexp.Regexp, each func(toks []string, m []int)) {
	for _, m := range macro.FindAllSubmatchIndex(span, -1) {
		close := closeParen(span, m[1]-1)
		if close < 0 {
			continue
		}
		toks, err := fn.lang.Pattern(string(span[m[1]:close]))
		if err != nil || len(toks) == 0 {
			continue
		}
		each(toks, m)
	}
}

// Returned returns the lock a function of that name returns by its
// annotation (`mu()` returns `mu_`), or nil. Functions are told apart by
// name alone: two that return different locks return none here.
func (lc *LockContracts) Returned(name string) []string { return lc.returned[name] }

// Of returns the locks fn holds by contract: the annotations of its
// definition and of its declarations, and the assertions among its body's
// statements.
func (lc *LockContracts) Of(fn *Function) []Required {
	if out, ok := lc.cache[fn]; ok {
		return out
	}
	body := fn.Func.Body
	var out []Required
	if body != nil && fn.File.Lang != "rust" {
		out = readRequires(fn.File, fn, lc.types.rawOf(fn.File), fn.Func.Node.Start, body.Start, body.Start)
		if fn.Func.Node.Kind != "function_definition" {
			// A Rust function or a lambda: no annotations.
			out = nil
		}
		p := fn.Func.Path
		class := ""
		if len(p) >= 2 {
			class = p[len(p)-2]
		}
		for _, d := range lc.decls[p[len(p)-1]] {
			if d.class == class || (d.class == "" && !lc.classes[class]) {
				for _, r := range d.reqs {
					r.From = body.Start
					out = append(out, r)
				}
			}
		}
	}
	if body != nil {
		out = append(out, lc.assertedLocks(fn)...)
		out = append(out, tryLocked(fn)...)
	}
	for i, r := range out {
		if r.Until < 0 {
			// A release function: held until its own unlock call.
			out[i].Until = 0
			for _, u := range fn.Unlocks() {
				if u.Node.Start >= r.From && matchLockOrReturned(lc, u.Lock, r.Lock) {
					out[i].Until = u.Node.Start
					break
				}
			}
		}
	}
	lc.cache[fn] = out
	return out
}

// readRequires reads the annotations in raw[start:end] of f, each lock
// held from from.
func readRequires(f *syntax.File, fn *Function, raw []byte, start, end, from int) []Required {
	if end > len(raw) || start >= end {
		return nil
	}
	var out []Required
	span := raw[start:end]
	for _, m := range requiresMacro.FindAllSubmatchIndex(span, -1) {
		open := m[1] - 1
		close := closeParen(span, open)
		if close < 0 {
			continue
		}
		macro := span[m[2]:m[3]]
		mode := invariants.Exclusive
		if sharedMacros[string(macro)] {
			mode = invariants.Shared
		}
		until := 0
		if releaseMacros[string(macro)] {
			until = -1 // the release call, found in the body (Of)
		}
		pos := f.Position(start + m[0])
		why := fmt.Sprintf("%s(%s) at %s:%d", string(span[m[0]:m[3]]), string(span[open+1:close]), filepath.Base(pos.Filename), pos.Line)
		for _, arg := range splitTopLevel(span[open+1 : close]) {
			toks, err := fn.lang.Pattern(string(arg))
			if err != nil || len(toks) == 0 {
				continue
			}
			out = append(out, Required{Lock: toks, Mode: mode, From: from, Until: until, Why: why, Stated: Span{f, start + m[0], start + close + 1}})
		}
	}
	return out
}

// closeParen returns the index of the parenthesis that closes the one
// at open, or -1.
func closeParen(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); i++ {
		switch b[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits an argument list at its top-level commas.
func splitTopLevel(b []byte) [][]byte {
	var out [][]byte
	depth, start := 0, 0
	for i, c := range b {
		switch c {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			if c != '>' || (i > 0 && b[i-1] != '-') {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, b[start:i])
				start = i + 1
			}
		}
	}
	return append(out, b[start:])
}

// assertedLocks are the assertions among the statements of fn's body
// and of its blocks: each holds its lock from its end to the end of its
// block.
func (lc *LockContracts) assertedLocks(fn *Function) []Required {
	var out []Required
	for _, c := range fn.Calls() {
		n := len(c.Callee)
		if a, ok := lc.asserted[c.Callee[n-1]]; ok && n == 1 && c.Live() {
			// A bare call of the class's own asserting function
			// (`AssertHeld();` declared ASSERT_EXCLUSIVE_LOCK(mutex_)):
			// an assertion of the lock it names, as `mutex_.AssertHeld()`.
			c.Callee = append(append([]string(nil), a.Lock...), ".", assertionOf(a.Mode))
			n = len(c.Callee)
		}
		if n < 3 || !c.Live() || (c.Callee[n-2] != "." && c.Callee[n-2] != "->") {
			continue
		}
		mode, ok := assertions[c.Callee[n-1]]
		stmt := c.Node.Parent
		if !ok || stmt == nil || stmt.Kind != "expression_statement" || stmt.Parent == nil {
			continue
		}
		// Held from the assertion to the end of its block: the body's,
		// or a branch's (`if (is_current()) { mu()->AssertHeld(); ... }`).
		until := 0
		if block := stmt.Parent; block != fn.Func.Body {
			if block.Kind != "compound_statement" && block.Kind != "block" {
				continue
			}
			until = block.End
		}
		// mu_->AssertHeld() asserts the mutex mu_ points to, which a
		// guard built from mu_ takes: the lock is mu_ either way.
		lock := append([]string(nil), c.Callee[:n-2]...)
		out = append(out, Required{Lock: lock, Mode: mode, From: c.Node.End, Until: until, Branch: until != 0, Why: fmt.Sprintf("%s() at line %d", joinTokens(c.Callee), fn.Line(c.Node)),
			Stated: Span{fn.File, stmt.Start, stmt.End}})
	}
	return out
}

// declaredFunction returns the name of the function a declaration (not a
// definition) declares through its own declarators, or "": a class
// defined in the declaration's type is not looked into.
func declaredFunction(f *syntax.File, d *syntax.Node) string {
	for _, decl := range d.ChildrenOf("declarator") {
		for n := decl; n != nil; n = innerDeclarator(n) {
			if n.Kind != "function_declarator" {
				continue
			}
			if id := n.Child("declarator"); id != nil {
				if toks := f.Tokens(id); len(toks) > 0 {
					return toks[len(toks)-1]
				}
			}
			break
		}
	}
	return ""
}

// innerDeclarator is the declarator a pointer, reference or array
// declarator wraps (a reference declarator names it by no field), or nil.
func innerDeclarator(n *syntax.Node) *syntax.Node {
	if d := n.Child("declarator"); d != nil {
		return d
	}
	if kids := n.NamedChildren(); len(kids) > 0 && n.Kind == "reference_declarator" {
		return kids[len(kids)-1]
	}
	return nil
}

// enclosingClass is the name of the innermost class or struct around n,
// or "".
func enclosingClass(f *syntax.File, n *syntax.Node) string {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Kind == "class_specifier" || p.Kind == "struct_specifier" {
			return className(f, p)
		}
	}
	return ""
}

// className is the last segment of a class specifier's name, or "".
func className(f *syntax.File, spec *syntax.Node) string {
	name := spec.Child("name")
	if name == nil {
		return ""
	}
	if name.Kind == "template_type" && name.Child("name") != nil {
		name = name.Child("name")
	}
	toks := f.Tokens(name)
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}

// matchLockOrReturned reports whether two lock expressions are one lock,
// a call of a function that returns a lock standing for it.
func matchLockOrReturned(lc *LockContracts, a, b []string) bool {
	for _, x := range lc.Aliases(a) {
		for _, y := range lc.Aliases(b) {
			if model.MatchLock(x, y) {
				return true
			}
		}
	}
	return false
}

// Aliases returns a lock expression and the ones that stand for it by a
// LOCK_RETURNED annotation: `mu()`, `this->mu()` or `*mu()` for the `mu_`
// that mu() returns, and mu_ for them.
func (lc *LockContracts) Aliases(l []string) [][]string {
	out := [][]string{l}
	core := l
	for len(core) > 1 && (core[0] == "*" || core[0] == "&") {
		core = core[1:]
	}
	if n := len(core); n >= 3 && core[n-2] == "(" && core[n-1] == ")" && (n == 3 || (n == 5 && core[0] == "this" && core[1] == "->")) {
		if r := lc.returned[core[n-3]]; r != nil {
			out = append(out, r)
		}
	}
	for name, r := range lc.returned {
		if r != nil && model.MatchLock(core, r) {
			out = append(out, []string{name, "(", ")"})
		}
	}
	return out
}

// tryMethods are the methods that take a lock only when it is free,
// returning whether they did, by the mode they take it in.
var tryMethods = map[string]invariants.LockMode{"TryLock": invariants.Exclusive, "try_lock": invariants.Exclusive,
	"ReaderTryLock": invariants.Shared, "try_lock_shared": invariants.Shared}

// tryLocked reads the idiom `if (!mu_.TryLock()) return ...;`: past the
// if, the lock is held, up to the function's unlock call of it (or the end
// of the block). It holds only there, so it binds no caller (Branch).
func tryLocked(fn *Function) []Required {
	var out []Required
	for _, c := range fn.Calls() {
		n := len(c.Callee)
		if n < 3 || !c.Live() || (c.Callee[n-2] != "." && c.Callee[n-2] != "->") {
			continue
		}
		mode, ok := tryMethods[c.Callee[n-1]]
		not := c.Node.Parent
		if !ok || not == nil || not.Kind != "unary_expression" || fn.File.Text(not)[0] != '!' {
			continue
		}
		cond := not.Parent
		if cond == nil || (cond.Kind != "condition_clause" && cond.Kind != "parenthesized_expression") {
			continue
		}
		stmt := cond.Parent
		if stmt == nil || stmt.Kind != "if_statement" || stmt.Child("alternative") != nil || !leaves(stmt.Child("consequence")) {
			continue
		}
		block := stmt.Parent
		if block == nil || (block.Kind != "compound_statement" && block != fn.Func.Body) {
			continue
		}
		lock := append([]string(nil), c.Callee[:n-2]...)
		until := block.End
		for _, u := range fn.Unlocks() {
			if u.Node.Start >= stmt.End && u.Node.Start < until && model.MatchLock(u.Lock, lock) {
				until = u.Node.Start
				break
			}
		}
		out = append(out, Required{Lock: lock, Mode: mode, From: stmt.End, Until: until, Branch: true,
			Why: fmt.Sprintf("%s() at line %d returned true", joinTokens(c.Callee), fn.Line(c.Node))})
	}
	return out
}

// leaves reports whether a statement always leaves its block: a return,
// break, continue or goto, alone or last in braces.
func leaves(st *syntax.Node) bool {
	for st != nil && st.Kind == "compound_statement" {
		kids := st.NamedChildren()
		if len(kids) == 0 {
			return false
		}
		st = kids[len(kids)-1]
	}
	if st == nil {
		return false
	}
	switch st.Kind {
	case "return_statement", "break_statement", "continue_statement", "goto_statement":
		return true
	}
	return false
}

// assertionOf is the assertion method of a mode.
func assertionOf(m invariants.LockMode) string {
	if m == invariants.Shared {
		return "AssertReaderHeld"
	}
	return "AssertHeld"
}
