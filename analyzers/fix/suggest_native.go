package fix

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/cfamily"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/rustlang"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// nativeLanguage returns the tree-sitter front end of a language.
func nativeLanguage(lang invariants.Lang) model.Language {
	if lang == invariants.LangRust {
		return rustlang.Language{}
	}
	return cfamily.Language{Lang: syntax.Lang(lang)}
}

// nativeSide is a C, C++, CUDA or Rust file after the fix, with the lines
// the fix added, or before it, with the lines it removed.
type nativeSide struct {
	path  string
	src   []byte
	lines map[int]bool
}

// nativeFile is a side parsed, with its live function definitions.
type nativeFile struct {
	*nativeSide
	file  *syntax.File
	funcs []*model.Func
}

// parse parses a side; nil when there is nothing to read (a file the fix
// added or deleted) or it does not parse.
func (s *nativeSide) parse(l model.Language, lang invariants.Lang, conf *model.Config) *nativeFile {
	if len(s.src) == 0 {
		return nil
	}
	f, err := syntax.Parse(syntax.Lang(lang), s.path, s.src)
	if err != nil {
		return nil
	}
	return &nativeFile{nativeSide: s, file: f, funcs: l.Functions(f, conf)}
}

// on reports whether a node starts on one of the side's changed lines.
func (f *nativeFile) on(n *syntax.Node) bool { return f.lines[f.file.Position(n.Start).Line] }

// touches reports whether a definition spans one of the changed lines.
func (f *nativeFile) touches(fn *model.Func) bool {
	from, to := f.file.Position(fn.Node.Start).Line, f.file.Position(fn.Node.End).Line
	for l := range f.lines {
		if l >= from && l <= to {
			return true
		}
	}
	return false
}

// lookup returns the definition with the given path, or nil.
func (f *nativeFile) lookup(path []string) *model.Func {
	for _, fn := range f.funcs {
		if slices.Equal(fn.Path, path) {
			return fn
		}
	}
	return nil
}

// nativeFacts reads the facts of a fix to one C, C++, CUDA or Rust file
// into c, with names written as the front end matches them: a callee or
// lock as written, a function by its qualified name, a field as
// Type::field. What the fix added: live calls, guards that hold a lock
// for the body, and a check (a call in a condition) with the call it
// comes before on every path. What it removed: a call the function no
// longer makes, and a write of a field of the method's type, with the
// functions of the file that write it now.
//
// Code in tests (a test directory's files, Rust's #[cfg(test)] and
// #[test] items) is read only when tests is set, and an added call that
// says nothing of the fix (trivialCallee) is not proposed as a call. A
// name the file defines more than once is written with its parameter
// list (nativeNames). rel is the file's slash path in the repository.
func nativeFacts(lang invariants.Lang, glob, rel string, tests bool, after, before *nativeSide, c *core.Change) {
	l := nativeLanguage(lang)
	conf := &model.Config{}
	erase := macrosToErase(strings.TrimSuffix(after.path, filepath.FromSlash(rel)), lang, after.src)
	if len(erase) > 0 {
		// Erasing keeps every other byte's offset: the lines the fix
		// changed are where they were.
		after = &nativeSide{path: after.path, src: syntax.EraseMacros(after.src, erase), lines: after.lines}
		before = &nativeSide{path: before.path, src: syntax.EraseMacros(before.src, erase), lines: before.lines}
	}
	now := after.parse(l, lang, conf)
	if now == nil {
		return
	}
	names := nativeNames(l, now)
	testNow := testRegionOf(string(lang), rel, now.file)
	var was *nativeFile
	var wasNames map[*model.Func]string
	origin := func(f *nativeFile, fn *model.Func, n *syntax.Node, removed bool) core.Origin {
		name := names[fn]
		if f == was {
			name = wasNames[fn]
		}
		if name == "" {
			name = strings.Join(fn.Path, "::")
		}
		return core.Origin{Lang: lang, Files: glob, Erase: erase, Function: name,
			File: filepath.Base(f.path), Line: f.file.Position(n.Start).Line, Removed: removed}
	}
	for _, fn := range now.funcs {
		if len(now.lines) == 0 || !now.touches(fn) || (!tests && testNow.has(now.file, fn)) {
			continue
		}
		calls := l.Calls(now.file, fn, conf)
		hold := l.Hold(now.file, fn, conf)
		// A guard's own lock call (`self.mu.lock()` of `let _g = ...`) is
		// proposed as the hold below, not as a call.
		inGuard := func(n *syntax.Node) bool {
			return slices.ContainsFunc(hold.Top, func(st model.Stmt) bool {
				return st.Kind == model.GuardStmt && st.Node.Contains(n)
			})
		}
		seen := map[string]bool{}
		for i := range calls {
			call := &calls[i]
			callee := strings.Join(call.Callee, "")
			if !call.Live() || !now.on(call.Node) || callee == "" {
				continue
			}
			if !seen[callee] && !trivialCallee(call.Callee) && !inGuard(call.Node) {
				seen[callee] = true
				c.Calls = append(c.Calls, core.AddedCall{Origin: origin(now, fn, call.Node, false), Callee: callee})
			}
			if inCondition(call.Node, fn.Body) {
				if then := protected(now, fn, calls, i); then != "" {
					c.Checks = append(c.Checks, core.AddedCheck{Origin: origin(now, fn, call.Node, false), First: callee, Then: then})
				}
			}
		}
		for _, st := range hold.Top {
			if st.Kind != model.GuardStmt || st.Guard == nil || !now.on(st.Node) || len(st.Guard.Lock) == 0 {
				continue
			}
			c.Locks = append(c.Locks, core.AddedLock{Origin: origin(now, fn, st.Node, false), Lock: strings.Join(st.Guard.Lock[0], ""), Mode: st.Guard.Mode})
		}
	}
	was = before.parse(l, lang, conf)
	if was == nil || len(was.lines) == 0 {
		return
	}
	wasNames = nativeNames(l, was)
	testWas := testRegionOf(string(lang), rel, was.file)
	for _, fn := range was.funcs {
		fixed := now.lookup(fn.Path)
		if fixed == nil || !was.touches(fn) || (!tests && testWas.has(was.file, fn)) {
			continue // a function the fix removed is guarded by nothing
		}
		nativeRemovedCalls(l, conf, was, now, fn, fixed, origin, c)
		nativeRemovedWrites(l, conf, was, now, fn, origin, c)
		nativeReleased(l, conf, lang, was, now, fn, fixed, origin, c)
	}
}

// nativeReleased reads the calls that fn made with a lock held before
// the fix and that its fixed definition makes with the lock released on
// every call: the fix moved them out of the lock's region, or released
// the lock before them. The callee is named by its last segment, as
// excludes matches a target, and the rule needs the file that defines
// it: this file, or one beside it (definitionGlob); a callee defined in
// neither is not proposed (excludes could not verify it).
func nativeReleased(l model.Language, conf *model.Config, lang invariants.Lang, was, now *nativeFile, fn, fixed *model.Func, origin originFunc, c *core.Change) {
	type pair struct{ callee, lock string }
	before := treesitter.NewFunction(was.file, fn, l, conf)
	after := treesitter.NewFunction(now.file, fixed, l, conf)
	lockNode := func(f *treesitter.Function, n *syntax.Node) bool {
		for _, a := range f.Acquisitions() {
			if a.Node.Contains(n) {
				return true
			}
		}
		return slices.ContainsFunc(f.Unlocks(), func(a treesitter.Acquisition) bool { return a.Node.Contains(n) })
	}
	var held []pair
	locks := map[string][]string{}
	for _, call := range before.Calls() {
		if !call.Live() || len(call.Callee) == 0 || trivialCallee(call.Callee) || lockNode(before, call.Node) {
			continue
		}
		for _, a := range before.Acquisitions() {
			if !a.Takes || !a.HeldAt(call.Node) {
				continue
			}
			p := pair{call.Callee[len(call.Callee)-1], strings.Join(a.Lock, "")}
			if !slices.Contains(held, p) {
				held = append(held, p)
				locks[p.lock] = a.Lock
			}
		}
	}
	for _, p := range held {
		var first *syntax.Node
		stillHeld := false
		for _, call := range after.Calls() {
			if !call.Live() || len(call.Callee) == 0 || call.Callee[len(call.Callee)-1] != p.callee || lockNode(after, call.Node) {
				continue
			}
			if first == nil {
				first = call.Node
			}
			for _, a := range after.Acquisitions() {
				if a.HeldAt(call.Node) && model.MatchLock(a.Lock, locks[p.lock]) {
					stillHeld = true
				}
			}
		}
		if first == nil || stillHeld {
			continue
		}
		o := origin(now, fixed, first, false)
		glob := definitionGlob(l, conf, lang, now, o.Files, p.callee)
		if glob == "" {
			continue
		}
		if glob != o.Files {
			o.MoreFiles = []string{glob}
		}
		c.Released = append(c.Released, core.ReleasedCall{Origin: o, Callee: p.callee, Lock: p.lock})
	}
}

// inCondition reports whether a node of a body lies in the condition of
// an if, a while or a for (the field the C family's and Rust's grammars
// both call `condition`).
func inCondition(n, body *syntax.Node) bool {
	for x := n; x != nil && x != body; x = x.Parent {
		if x.Field == "condition" {
			return true
		}
	}
	return false
}

// protected is the call a check (calls[i], in a condition) protects: the
// first live call after it, of another callee, that it runs before on
// every path (treesitter.Dominance, as order checks it), preferring one
// the fix did not add; "" when there is none.
func protected(f *nativeFile, fn *model.Func, calls []model.Call, i int) string {
	check := &calls[i]
	first := strings.Join(check.Callee, "")
	// Dominance reads the body only: a Function with the file and the
	// definition is enough to ask it.
	dom := (&treesitter.Function{File: f.file, Func: fn}).Dominance([]*syntax.Node{check.Node})
	fallback := ""
	for j := range calls {
		c := &calls[j]
		callee := strings.Join(c.Callee, "")
		if j == i || !c.Live() || c.Node.Start < check.Node.End || callee == "" || callee == first || !dom.Dominated(c.Node) {
			continue
		}
		if !f.on(c.Node) {
			return callee
		}
		if fallback == "" {
			fallback = callee
		}
	}
	return fallback
}

type originFunc func(f *nativeFile, fn *model.Func, n *syntax.Node, removed bool) core.Origin

// nativeRemovedCalls reads the live calls the fix removed from fn that its
// fixed definition no longer makes.
func nativeRemovedCalls(l model.Language, conf *model.Config, was, now *nativeFile, fn, fixed *model.Func, origin originFunc, c *core.Change) {
	kept := l.Calls(now.file, fixed, conf)
	seen := map[string]bool{}
	for _, call := range l.Calls(was.file, fn, conf) {
		callee := strings.Join(call.Callee, "")
		// A call that might run counts (a closure's, which forbid
		// reports as one that might run): the fix that takes self.len()
		// out of a for_each closure removed a call forbid can keep out.
		if !call.MayRun() || !was.on(call.Node) || callee == "" || seen[callee] {
			continue
		}
		seen[callee] = true
		if len(call.Callee) > 1 && declaresLocal(was.file, fn, call.Callee[0]) {
			continue // through a local: another local's name would pass a forbid
		}
		pattern, err := l.Pattern(callee)
		if err != nil || slices.ContainsFunc(kept, func(k model.Call) bool { return model.MatchCall(&k, pattern) }) {
			continue
		}
		c.RemovedCalls = append(c.RemovedCalls, core.RemovedCall{Origin: origin(was, fn, call.Node, true), Callee: callee})
	}
}

// nativeRemovedWrites reads the writes of a field of a method's own type that
// the fix removed from the method, with the functions of the file that
// write the field now; the method must not be one of them.
func nativeRemovedWrites(l model.Language, conf *model.Config, was, now *nativeFile, fn *model.Func, origin originFunc, c *core.Change) {
	if len(fn.Path) < 2 {
		return // a free function: the field's type is not known
	}
	typ := fn.Path[len(fn.Path)-2]
	name := strings.Join(fn.Path, "::")
	seen := map[string]bool{}
	syntax.Walk(fn.Body, func(n *syntax.Node) bool {
		if len(n.Children) > 0 || !n.Named || (n.Kind != "field_identifier" && n.Kind != "identifier") || !was.on(n) {
			return true
		}
		field := was.file.Text(n)
		if seen[field] {
			return true
		}
		seen[field] = true
		if declaresLocal(was.file, fn, field) {
			return true // a local or a parameter, not a field of typ
		}
		removed := slices.ContainsFunc(l.Writes(was.file, fn, typ, field, conf), func(w model.Write) bool { return was.on(w.Node) })
		if !removed {
			return true
		}
		var writers []string
		for _, g := range now.funcs {
			if len(l.Writes(now.file, g, typ, field, conf)) > 0 {
				writers = append(writers, strings.Join(g.Path, "::"))
			}
		}
		if !slices.Contains(writers, name) {
			c.RemovedWrites = append(c.RemovedWrites, core.RemovedWrite{Origin: origin(was, fn, n, true), Field: typ + "::" + field, Writers: writers})
		}
		return true
	})
}

// definitionGlob is the glob of the file that defines a function named
// name: glob itself (the file now) when it does, else the first file
// beside it, of the same front end, that does; "" when none does. Only
// files that spell the name are parsed.
func definitionGlob(l model.Language, conf *model.Config, lang invariants.Lang, now *nativeFile, glob, name string) string {
	defines := func(funcs []*model.Func) bool {
		return slices.ContainsFunc(funcs, func(fn *model.Func) bool { return len(fn.Path) > 0 && fn.Path[len(fn.Path)-1] == name })
	}
	if defines(now.funcs) {
		return glob
	}
	dir := filepath.Dir(now.path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		other := sourceLang(e.Name())
		if e.IsDir() || other == "" || other == "go" || (other == "rust") != (lang == invariants.LangRust) || e.Name() == filepath.Base(now.path) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(src, []byte(name)) {
			continue
		}
		f, err := syntax.Parse(syntax.Lang(lang), path, src)
		if err != nil {
			continue
		}
		if defines(l.Functions(f, conf)) {
			return filepath.ToSlash(filepath.Join(filepath.Dir(glob), e.Name()))
		}
	}
	return ""
}

// macroBeforeDecl is an upper-case name at the start of a line, or
// after the line's first word, followed by a name: where an object-like
// macro stands among a declaration's specifiers (`SPDLOG_INLINE void
// logger::flush_()`, `bool SPDLOG_INLINE thread_pool::process_next_msg_()`),
// and where no expression puts one; or alone on its line, where a
// macro stands for a statement's keyword or a pragma (SPDLOG_TRY before
// a block, SPDLOG_CATCH_STD after it).
var macroBeforeDecl = regexp.MustCompile(`(?m)^[ \t]*(?:(?:[A-Za-z_][\w:<>,*&]*[ \t]+)?([A-Z][A-Z0-9_]{2,})[ \t]+[A-Za-z_~]|([A-Z][A-Z0-9_]{2,})[ \t]*$)`)

// macrosToErase are the object-like macros that a C family file does not
// parse without: names in a declaration's specifiers that the
// repository defines with #define and no parameter list, kept when
// erasing them leaves fewer syntax errors. A definition behind such a
// macro does not parse otherwise, and a rule on it cannot verify; the
// proposals then carry them as `erase`, as a maintainer would write it.
// With no root (a hunk's classification, which only asks where the
// function bodies are) a name need not be found defined: erasing it must
// still leave fewer errors.
func macrosToErase(root string, lang invariants.Lang, src []byte) []string {
	if lang == invariants.LangRust || len(src) == 0 {
		return nil
	}
	// bad is how much of the file its syntax errors cover: one ERROR
	// node can swallow every definition after the macro.
	bad := func(src []byte) int {
		f, err := syntax.Parse(syntax.Lang(lang), "", src)
		if err != nil {
			return 1 << 30
		}
		n := 0
		syntax.Walk(f.Root, func(m *syntax.Node) bool {
			if m.Bad {
				n += max(m.End-m.Start, 1)
				return false
			}
			return true
		})
		return n
	}
	errs := bad(src)
	if errs == 0 {
		return nil
	}
	var names []string
	for _, m := range macroBeforeDecl.FindAllSubmatch(src, -1) {
		name := string(m[1]) + string(m[2])
		if slices.Contains(names, name) || len(names) == 8 {
			continue
		}
		define := `^[[:space:]]*#[[:space:]]*define[[:space:]]+` + name + `([[:space:]]|$)`
		if root == "" || exec.Command("git", "-C", root, "grep", "-q", "-E", define).Run() == nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 || bad(syntax.EraseMacros(src, names)) >= errs {
		return nil
	}
	return names
}
