package native_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// code writes src to a file of a new directory and loads the code of an
// invariant on it: lang, the target function and the rule, in YAML flow
// style.
func code(t *testing.T, lang, file, src, target, rule string) *native.Code {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644))
	yaml := "version: 1\ninvariants:\n  - {id: inv, why: w, lang: " + lang + ", files: " + file + ", function: " + target + ", " + rule + "}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte(yaml), 0o644))
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	c, err := native.Load(set.Invariants[0], nil)
	require.NoError(t, err)
	return c
}

// mutants returns the invariant's native mutants by revert.
func mutants(t *testing.T, c *native.Code) map[string]*mutant.Mutant {
	t.Helper()
	out := map[string]*mutant.Mutant{}
	for _, m := range c.Inv.Rule.(native.Rule).NativeMutants(c) {
		out[m.Op] = m
	}
	return out
}

// text returns the mutated content of the file a mutant changes.
func text(t *testing.T, m *mutant.Mutant) string {
	t.Helper()
	require.Empty(t, m.Void, m.Name)
	require.Len(t, m.Files, 1, m.Name)
	for _, data := range m.Files {
		return string(data)
	}
	return ""
}

// TestStatementRevertsPerDialect checks how each language spells the
// statement reverts of a required call.
func TestStatementRevertsPerDialect(t *testing.T) {
	const cSrc = "void buf_flush(int);\nint good(int b) {\n  buf_flush(b);\n  return b;\n}\n"
	const cppSrc = "struct E { void retain(); };\nstruct B {\n  E* enc;\n  void get() {\n    enc->retain();\n  }\n};\n"
	const rustSrc = "impl B {\n    fn get(&self) -> u32 {\n        self.enc.retain();\n        1\n    }\n}\n"
	for _, tc := range []struct {
		lang, file, src, target, to string
		want                        map[string]string
		absent                      []string
	}{
		{"c", "a.c", cSrc, "good", "buf_flush", map[string]string{
			mutant.OpCompiledOut:  "  #if 0\n  buf_flush(b);\n  #endif\n",
			mutant.OpIfFalse:      "  if (0) { buf_flush(b); }\n",
			mutant.OpAfterReturn:  "  return 0;\n  buf_flush(b);\n",
			mutant.OpString:       `  (void)"buf_flush(b);";`,
			mutant.OpMoved:        "}\n\nstatic void guardlint_moved(void) {\n    buf_flush(b);\n}\n",
			mutant.OpBlockComment: "  /* buf_flush(b); */\n",
			mutant.OpLineComment:  "  // buf_flush(b);\n",
		}, []string{mutant.OpClosure}},
		{"cpp", "a.cc", cppSrc, "B::get", "enc->retain", map[string]string{
			mutant.OpCompiledOut: "    #if 0\n    enc->retain();\n    #endif\n",
			mutant.OpIfFalse:     "    if (false) { enc->retain(); }\n",
			mutant.OpAfterReturn: "    return;\n    enc->retain();\n",
			mutant.OpClosure:     "    [&] { enc->retain(); };\n",
			mutant.OpWrongRecv:   "    guardlint_other->retain();\n",
			mutant.OpMoved:       "  }\n\n  [[maybe_unused]] static void guardlint_moved() {\n      enc->retain();\n  }\n",
		}, nil},
		{"rust", "a.rs", rustSrc, "B::get", "self.enc.retain", map[string]string{
			mutant.OpCompiledOut: "        #[cfg(any())]\n        self.enc.retain();\n",
			mutant.OpIfFalse:     "        if false { self.enc.retain(); }\n",
			mutant.OpAfterReturn: "        panic!(\"reverted\");\n        self.enc.retain();\n",
			mutant.OpClosure:     "        let _ = || { self.enc.retain(); };\n",
			mutant.OpString:      `        let _ = "self.enc.retain();";`,
			mutant.OpWrongRecv:   "        guardlint_other.retain();\n",
		}, nil},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ms := mutants(t, code(t, tc.lang, tc.file, tc.src, tc.target, "call: {to: "+tc.to+"}"))
			for op, want := range tc.want {
				require.Contains(t, ms, op)
				assert.Contains(t, text(t, ms[op]), want, op)
			}
			for _, op := range tc.absent {
				assert.NotContains(t, ms, op, "%s has no %s", tc.lang, op)
			}
		})
	}
}

// TestVoidWhenTheMutantDoesNotParse builds mutants whose edits break the
// syntax, in the target or elsewhere in the file: each is void, so that
// the invariant firing on the recovered tree can never count as a kill.
func TestVoidWhenTheMutantDoesNotParse(t *testing.T) {
	const src = "struct E { void retain(); };\nvoid work();\nvoid get(E* enc) {\n  enc->retain();\n  work();\n}\nvoid other() { work(); }\n"
	c := code(t, "cpp", "a.cc", src, "get", "call: {to: enc->retain}")
	fn := c.Targets()[0]
	at := strings.Index(src, "enc->retain();")
	for name, edit := range map[string]func(e *native.Edits){
		"in the target":        func(e *native.Edits) { e.Replace(fn.File, at, at+len("enc->retain();"), "enc->retain(") },
		"elsewhere":            func(e *native.Edits) { e.Insert(fn.File, len(src), "int x = ;\n") },
		"an unbalanced brace":  func(e *native.Edits) { e.Replace(fn.File, at, at+len("enc->retain();"), "{") },
		"in a function before": func(e *native.Edits) { e.Insert(fn.File, strings.Index(src, "void work"), "void f( {}\n") },
		// The missing #endif is at the end of the file, away from the edit
		// and from the target: the file has more errors than before.
		"far from the edit": func(e *native.Edits) { e.Insert(fn.File, strings.Index(src, "void other"), "#if 0\n") },
	} {
		e := c.NewEdits()
		edit(e)
		m := c.Mutant(fn, "test", e, "")
		assert.Contains(t, m.Void, "does not parse", name)
		assert.Nil(t, m.Files, name)
	}
	// A file with an error elsewhere already: an edit that adds one where
	// it changes the code is void though it also removes the old one.
	const broken = src + "void broken( {}\n"
	c2 := code(t, "cpp", "a.cc", broken, "get", "call: {to: enc->retain}")
	fn2 := c2.Targets()[0]
	e2 := c2.NewEdits()
	e2.Replace(fn2.File, strings.Index(broken, "void broken("), len(broken), "void fixed() {}\n")
	other := strings.Index(broken, "void other() { work(); }")
	e2.Replace(fn2.File, other, other+len("void other() { work(); }"), "void other() { work( }")
	assert.Contains(t, c2.Mutant(fn2, "test", e2, "").Void, "does not parse", "an error where the mutant changed the code")

	// The same place, rewritten so that it parses, is a mutant.
	e := c.NewEdits()
	e.Replace(fn.File, at, at+len("enc->retain();"), "")
	m := c.Mutant(fn, "test", e, "")
	assert.Empty(t, m.Void)
	assert.Equal(t, 3, m.Site.Start)
	assert.Equal(t, 6, m.Site.End)
}

// TestBracesKeepOneStatement reverts a call that is the body of an if
// without braces: the replacement gets braces, so that the next
// statement does not become the body, nor an added return leave it.
func TestBracesKeepOneStatement(t *testing.T) {
	const src = "void flush(int);\nvoid log(int);\nvoid good(int b) {\n  if (b) flush(b);\n  log(b);\n}\n"
	ms := mutants(t, code(t, "c", "a.c", src, "good", "call: {to: flush}"))
	assert.Contains(t, text(t, ms[mutant.OpDelete]), "  if (b) {}\n  log(b);")
	assert.Contains(t, text(t, ms[mutant.OpAfterReturn]), "  if (b) {\n      return;\n  flush(b);\n  }\n  log(b);")
	assert.Contains(t, text(t, ms[mutant.OpLineComment]), "  if (b) {\n      // flush(b);\n  }\n")
}

// TestRustAttributesGoWithTheStatement reverts a statement under a
// #[cfg]: the attribute is part of it, so that a deleted statement does
// not leave it to the next one.
func TestRustAttributesGoWithTheStatement(t *testing.T) {
	const src = "fn good(enc: &E) {\n    #[cfg(feature = \"metal\")]\n    enc.retain();\n    work();\n}\n"
	ms := mutants(t, code(t, "rust", "a.rs", src, "good", "defines: {feature: [metal]}, call: {to: enc.retain}"))
	assert.Equal(t, "fn good(enc: &E) {\n    \n    work();\n}\n", text(t, ms[mutant.OpDelete]))
	assert.Contains(t, text(t, ms[mutant.OpIfFalse]), "if false { #[cfg(feature = \"metal\")]\n    enc.retain(); }")
}

// TestGuardReverts checks the reverts only guards have, as each language
// spells them.
func TestGuardReverts(t *testing.T) {
	const cpp = "#include <mutex>\nvoid work();\nstruct R {\n  std::mutex mu;\n  void add() {\n    std::lock_guard<std::mutex> l(mu);\n    work();\n    work();\n  }\n};\n"
	ms := mutants(t, code(t, "cpp", "a.cc", cpp, "R::add", "hold: {lock: mu}"))
	for op, want := range map[string]string{
		mutant.OpEmptySection:  "    std::lock_guard<std::mutex>{mu};\n    work();",
		mutant.OpNestedScope:   "    { std::lock_guard<std::mutex> l(mu); }\n",
		mutant.OpUnlockedEarly: "    std::unique_lock<std::mutex> l(mu);\n    work();\n    l.unlock();\n    work();",
		mutant.OpAnotherLock:   "  static inline std::mutex guardlint_other_mu;\n  void add() {\n    std::lock_guard<std::mutex> l(guardlint_other_mu);",
		mutant.OpOtherMode:     "    std::shared_lock<std::mutex> l(mu);\n",
		mutant.OpLockedLate:    "    \n    work();\n    std::lock_guard<std::mutex> l(mu);\n    work();",
	} {
		require.Contains(t, ms, op)
		assert.Contains(t, text(t, ms[op]), want, op)
	}
	assert.NotContains(t, ms, mutant.OpLetUnderscore, "C++ has no let _")

	const rust = "impl R {\n    fn add(&self) {\n        let _g = self.mu.lock().unwrap();\n        work();\n    }\n}\n"
	ms = mutants(t, code(t, "rust", "a.rs", rust, "R::add", "hold: {lock: self.mu}"))
	for op, want := range map[string]string{
		mutant.OpEmptySection:  "        self.mu.lock().unwrap();\n        work();",
		mutant.OpLetUnderscore: "        let _ = self.mu.lock().unwrap();\n",
		mutant.OpUnlockedEarly: "        drop(_g);\n        work();",
		mutant.OpAnotherLock:   "let _g = GUARDLINT_OTHER_MU.lock().unwrap();",
		mutant.OpOtherMode:     "let _g = self.mu.read().unwrap();",
	} {
		require.Contains(t, ms, op)
		assert.Contains(t, text(t, ms[op]), want, op)
	}
	assert.Contains(t, text(t, ms[mutant.OpAnotherLock]), "static GUARDLINT_OTHER_MU: std::sync::Mutex<()> = std::sync::Mutex::new(());")
}

// TestVacuity checks where a pattern that matches no code that runs is
// said to appear.
func TestVacuity(t *testing.T) {
	const src = "void release(int);\nvoid reset(int e) {\n  // release(e) is endActive's job\n  if (0) { release(e); }\n  log(\"release\");\n}\n"
	c := code(t, "cpp", "a.cc", src, "reset", "forbid: {call: release}")
	got := c.Inv.Rule.(native.Rule).NativeVacuity(c)
	require.Len(t, got, 1)
	assert.Equal(t, "release appears only in dead code (in a branch under a constant false condition), comments, string literals of a.cc", got[0])

	c = code(t, "cpp", "a.cc", "void reset(int e) {}\n", "reset", "forbid: {call: relase}")
	assert.Equal(t, []string{"relase matches nothing: no code of a.cc uses it"}, c.Inv.Rule.(native.Rule).NativeVacuity(c))

	c = code(t, "cpp", "a.cc", src+"void f(int e) { release(e); }\n", "reset", "forbid: {call: release}")
	assert.Empty(t, c.Inv.Rule.(native.Rule).NativeVacuity(c), "a live call elsewhere in the files uses it")
}

// TestErrorsTheFileHadAreNotTheMutants proves a target in a file with a
// syntax error of its own, as libstdc++'s headers have around their
// namespace macros: its mutants are not void, unless they add an error.
func TestErrorsTheFileHadAreNotTheMutants(t *testing.T) {
	const src = "namespace std _GLIBCXX_VISIBILITY(default)\n{\n  void get(E* enc) {\n    enc->retain();\n    work();\n  }\n}\n"
	c := code(t, "cpp", "a.h", src, "get", "call: {to: enc->retain}")
	ms := mutants(t, c)
	for _, op := range []string{mutant.OpDelete, mutant.OpCompiledOut, mutant.OpMoved, mutant.OpClosure} {
		assert.Empty(t, ms[op].Void, op)
	}
	fn := c.Targets()[0]
	e := c.NewEdits()
	at := strings.Index(src, "work();")
	e.Replace(fn.File, at, at+len("work();"), "work(;")
	assert.Contains(t, c.Mutant(fn, "test", e, "").Void, "does not parse")
}
