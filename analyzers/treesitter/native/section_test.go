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

// filesCode loads the code of an invariant checked over its files at once
// (excludes, lock_order): src in file, the rest of the invariant in YAML
// flow style.
func filesCode(t *testing.T, lang, file, src, rest string) *native.Code {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644))
	yaml := "version: 1\ninvariants:\n  - {id: inv, why: w, lang: " + lang + ", files: " + file + ", " + rest + "}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "guardlint.yaml"), []byte(yaml), 0o644))
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	c, err := native.Load(set.Invariants[0], nil)
	require.NoError(t, err)
	return c
}

// TestLockSectionsPerDialect checks how the reverts of excludes and
// lock_order take a lock in each language: as the files take it, a guard
// declaration copied into a block, a lock call with the call that gives
// it up.
func TestLockSectionsPerDialect(t *testing.T) {
	const cSrc = "void sync(void) {}\nvoid eval(void) {\n  pthread_mutex_lock(&a);\n  pthread_mutex_lock(&b);\n  pthread_mutex_unlock(&b);\n  pthread_mutex_unlock(&a);\n  sync();\n}\n"
	const cppSrc = "struct S { void sync() {} };\nstruct D {\n  S s;\n  void eval() {\n    {\n      std::lock_guard<std::mutex> ga(a);\n      std::lock_guard<std::mutex> gb(b);\n    }\n    s.sync();\n  }\n};\n"
	const rustSrc = "struct S {}\nstruct D {\n    a: Mutex<()>,\n    b: Mutex<()>,\n    s: S,\n}\nimpl S {\n    fn sync(&self) {}\n}\nimpl D {\n    fn eval(&self) {\n        {\n            let _ga = self.a.lock().unwrap();\n            let _gb = self.b.lock().unwrap();\n        }\n        self.s.sync();\n    }\n}\n"
	for _, tc := range []struct {
		lang, file, src, target, a, b   string
		under, added, reversed, swapped string
	}{
		{"c", "a.c", cSrc, "sync", "a", "b",
			"  {\n      pthread_mutex_lock(&a);\n      sync();\n      pthread_mutex_unlock(&a);\n  }\n}\n",
			"  pthread_mutex_lock(&a);\n  sync();\n  pthread_mutex_lock(&b);\n",
			"  pthread_mutex_lock(&b);\n  {\n      pthread_mutex_lock(&a);\n      pthread_mutex_unlock(&a);\n  }\n",
			"  pthread_mutex_lock(&b);\n  pthread_mutex_lock(&a);\n  pthread_mutex_unlock(&b);\n"},
		{"cpp", "a.cc", cppSrc, "S::sync", "a", "b",
			"    {\n        std::lock_guard<std::mutex> ga(a);\n        s.sync();\n    }\n",
			"      std::lock_guard<std::mutex> ga(a);\n      s.sync();\n      std::lock_guard<std::mutex> gb(b);\n",
			"      std::lock_guard<std::mutex> gb(b);\n      {\n          std::lock_guard<std::mutex> ga(a);\n      }\n",
			"      std::lock_guard<std::mutex> gb(b);\n      std::lock_guard<std::mutex> ga(a);\n    }\n"},
		{"rust", "a.rs", rustSrc, "S::sync", "self.a", "self.b",
			"        {\n            let _ga = self.a.lock().unwrap();\n            self.s.sync();\n        }\n",
			"            let _ga = self.a.lock().unwrap();\n            self.s.sync();\n            let _gb = self.b.lock().unwrap();\n",
			"            let _gb = self.b.lock().unwrap();\n            {\n                let _ga = self.a.lock().unwrap();\n            }\n",
			"            let _gb = self.b.lock().unwrap();\n            let _ga = self.a.lock().unwrap();\n        }\n"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			excl := byOp(t, filesCode(t, tc.lang, tc.file, tc.src, "function: "+tc.target+", excludes: {lock: "+tc.a+"}"))
			assert.Contains(t, text(t, excl["call-under-lock"]), tc.under)
			assert.Contains(t, text(t, excl["call-added"]), tc.added)
			order := byOp(t, filesCode(t, tc.lang, tc.file, tc.src, "lock_order: ["+tc.a+", "+tc.b+"]"))
			assert.Contains(t, text(t, order["lock-reversed"]), tc.reversed)
			assert.Contains(t, text(t, order["locks-swapped"]), tc.swapped)
		})
	}
}

// TestLockSectionOfATemporary checks that a temporary guard, which holds
// nothing past its statement, is no section to bring a call under: the
// revert is void and says why.
func TestLockSectionOfATemporary(t *testing.T) {
	const src = "struct S { void sync() {} };\nstruct D {\n  S s;\n  void eval() {\n    std::lock_guard<std::mutex>{a};\n    s.sync();\n  }\n};\n"
	ms := byOp(t, filesCode(t, "cpp", "a.cc", src, "function: S::sync, excludes: {lock: a}"))
	require.Contains(t, ms, "call-under-lock")
	assert.Contains(t, ms["call-under-lock"].Void, "takes a in a statement of its own")
	assert.NotContains(t, ms, "call-added")
}

// byOp returns an invariant's native mutants by revert, the site suffix
// (@line...) cut: one site of each revert in these sources.
func byOp(t *testing.T, c *native.Code) map[string]*mutant.Mutant {
	t.Helper()
	out := map[string]*mutant.Mutant{}
	for _, m := range c.Inv.Rule.(native.Rule).NativeMutants(c) {
		op, _, _ := strings.Cut(m.Op, "@")
		require.NotContains(t, out, op, "two sites of %s", op)
		out[op] = m
	}
	return out
}
