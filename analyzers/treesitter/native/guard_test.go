package native_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnotherLockOfAGuardNamedAsItsMutex checks that another-lock
// replaces the locked expression, not the guard's name when the two are
// spelled alike.
func TestAnotherLockOfAGuardNamedAsItsMutex(t *testing.T) {
	const src = "impl S {\n    fn f(&self) {\n        let mut files = files.lock().unwrap();\n        files.sort();\n    }\n}\n"
	ms := mutants(t, code(t, "rust", "a.rs", src, "S::f", "hold: {lock: files}"))
	assert.Contains(t, text(t, ms[mutant.OpAnotherLock]), "let mut files = GUARDLINT_OTHER_MU.lock().unwrap();")
}

// TestTargetsByParameterList checks that a target named with its
// parameter list is mutated in that overload alone.
func TestTargetsByParameterList(t *testing.T) {
	const src = "struct S {\n  std::mutex mu;\n  void f(int a) {\n    std::lock_guard<std::mutex> l(mu);\n    g(a);\n  }\n  void f(double b) {\n    std::lock_guard<std::mutex> l(mu);\n    g(b);\n  }\n};\n"
	c := code(t, "cpp", "a.cc", src, "\"S::f(double)\"", "hold: {lock: mu}")
	require.Len(t, c.Targets(), 1)
	assert.Equal(t, 7, c.Targets()[0].File.Position(c.Targets()[0].Func.Node.Start).Line)
}

// TestOutOfScope checks where out-of-scope moves the access: after the
// block the guard holds the lock to the end of, or before the guard when
// that block is the body or returns (after it the access would be dead
// code).
func TestOutOfScope(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"after the block", "  {\n    std::lock_guard<std::mutex> l(mu);\n    op();\n  }\n  done();\n",
			"  {\n    std::lock_guard<std::mutex> l(mu);\n    \n  }\n  op();\n  done();\n"},
		{"before the guard of a block that returns", "  {\n    std::lock_guard<std::mutex> l(mu);\n    op();\n    return;\n  }\n",
			"  {\n    op();\n    std::lock_guard<std::mutex> l(mu);\n    \n    return;\n  }\n"},
		{"before the guard of the body", "  std::lock_guard<std::mutex> l(mu);\n  op();\n",
			"  op();\n  std::lock_guard<std::mutex> l(mu);\n  \n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "void op();\nvoid f() {\n" + tc.body + "}\n"
			ms := mutants(t, code(t, "cpp", "a.cc", src, "op", "requires: {lock: mu, within: [f]}"))
			assert.Equal(t, "void op();\nvoid f() {\n"+tc.want+"}\n", text(t, ms[mutant.OpOutOfScope]))
		})
	}
}

// TestAccessHeldTwice checks that an access two guards of the lock hold (a
// reentrant mutex taken again) has only void reverts: the outer guard
// holds it whatever becomes of the inner one.
func TestAccessHeldTwice(t *testing.T) {
	const src = "fn f(m: M) {\n    let outer = m.lock();\n    for i in 0..3 {\n        let inner = m.lock();\n        inner.borrow_mut();\n    }\n    drop(outer);\n}\n"
	ms := mutants(t, code(t, "rust", "a.rs", src, "borrow_mut", "requires: {lock: m, within: [f]}"))
	require.NotEmpty(t, ms)
	for op, m := range ms {
		assert.Equal(t, "another guard of the lock holds it here too", m.Void, op)
	}
}

// TestBoundGuardReverts checks how the reverts of a guard bound by its
// statement are spelled: over its region, as real reverts of such code
// read.
func TestBoundGuardReverts(t *testing.T) {
	const rs = "impl Q {\n    fn f(&self) {\n        if let Ok(mut g) = self.mu.lock() {\n            g.push(1);\n        }\n    }\n}\n"
	ms := mutants(t, code(t, "rust", "a.rs", rs, "Q::f", "hold: {lock: self.mu}"))
	assert.Contains(t, text(t, ms[mutant.OpLockDeleted]), "    fn f(&self) {\n        {\n            g.push(1);\n        }\n    }")
	assert.Contains(t, text(t, ms[mutant.OpEmptySection]), "{ self.mu.lock(); {\n            g.push(1);\n        } }")
	assert.Contains(t, text(t, ms[mutant.OpUnlockedEarly]), "{\n            drop(g);\n            g.push(1);")
	assert.Contains(t, text(t, ms[mutant.OpGuardForgotten]), "{\n            std::mem::forget(g);\n            g.push(1);")
	assert.Equal(t, "a pattern that binds nothing leaves the guard a temporary of the scrutinee, which lives through the region", ms[mutant.OpLetUnderscore].Void)

	const cc = "struct Q {\n  std::mutex mu_;\n  int n_;\n  void f() {\n    if (std::lock_guard lk(mu_); n_ > 0) {\n      n_--;\n      n_++;\n    }\n  }\n};\n"
	ms = mutants(t, code(t, "cpp", "a.cc", cc, "Q::f", "hold: {lock: mu_}"))
	assert.Contains(t, text(t, ms[mutant.OpLockDeleted]), "    if ( n_ > 0) {\n      n_--;")
	assert.Contains(t, text(t, ms[mutant.OpLockedLate]), "    if ( n_ > 0) {\n      n_--;\n      std::lock_guard lk(mu_);\n      n_++;")
	assert.Contains(t, text(t, ms[mutant.OpUnlockedEarly]), "if (std::unique_lock lk(mu_); n_ > 0) {\n      lk.unlock();\n      n_--;")
}

// TestLibraryGuardReverts checks how the reverts that rewrite a guard
// spell the library guards the front end reads (absl::MutexLock takes the
// mutex's address, gRPC's grpc_core::Mutex has one mode) and a guard
// class the code declares, whose annotations name its release.
func TestLibraryGuardReverts(t *testing.T) {
	body := func(decl string) string {
		return "struct Q {\n  absl::Mutex mu_;\n  int n_;\n  void f() {\n    " + decl + "\n    n_--;\n    n_++;\n  }\n};\n"
	}
	ms := mutants(t, code(t, "cpp", "a.cc", body("absl::MutexLock l(&mu_);"), "Q::f", "hold: {lock: mu_}"))
	assert.Contains(t, text(t, ms[mutant.OpEmptySection]), "    absl::MutexLock{&mu_};\n")
	assert.Contains(t, text(t, ms[mutant.OpOtherMode]), "    absl::ReaderMutexLock l(&mu_);\n")
	another := text(t, ms[mutant.OpAnotherLock])
	assert.Contains(t, another, "static inline absl::Mutex guardlint_other_mu;")
	assert.Contains(t, another, "    absl::MutexLock l(&guardlint_other_mu);\n")
	assert.Contains(t, text(t, ms[mutant.OpUnlockedEarly]), "    absl::ReleasableMutexLock l(&mu_);\n    n_--;\n    l.Release();\n    n_++;")
	assert.Equal(t, "absl::MutexLock cannot give its mutex up without unlocking it", ms[mutant.OpGuardForgotten].Void)

	ms = mutants(t, code(t, "cpp", "a.cc", body("grpc_core::MutexLock l(&mu_);"), "Q::f", "hold: {lock: mu_}"))
	assert.Equal(t, "grpc_core::MutexLock's mutex has one mode", ms[mutant.OpOtherMode].Void)
	assert.Contains(t, text(t, ms[mutant.OpAnotherLock]), "static inline grpc_core::Mutex guardlint_other_mu;")

	ms = mutants(t, code(t, "cpp", "a.cc", body("absl::ReaderMutexLock l(&mu_);"), "Q::f", "hold: {lock: mu_, mode: shared}"))
	assert.Contains(t, text(t, ms[mutant.OpOtherMode]), "    absl::WriterMutexLock l(&mu_);\n")
	assert.Equal(t, "absl::ReaderMutexLock cannot give its mutex up before its scope ends", ms[mutant.OpUnlockedEarly].Void)

	const declared = "#define ABSL_SCOPED_LOCKABLE __attribute__((scoped_lockable))\n#define ABSL_EXCLUSIVE_LOCK_FUNCTION(...) __attribute__((exclusive_lock_function(__VA_ARGS__)))\n#define ABSL_UNLOCK_FUNCTION(...) __attribute__((unlock_function(__VA_ARGS__)))\n" +
		"class ABSL_SCOPED_LOCKABLE Section {\n public:\n  explicit Section(absl::Mutex *mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu);\n  void Leave() ABSL_UNLOCK_FUNCTION();\n};\n"
	ms = mutants(t, code(t, "cpp", "a.cc", declared+body("Section s(&mu_);"), "Q::f", "hold: {lock: mu_}, erase: [ABSL_SCOPED_LOCKABLE, ABSL_EXCLUSIVE_LOCK_FUNCTION, ABSL_UNLOCK_FUNCTION]"))
	assert.Contains(t, text(t, ms[mutant.OpUnlockedEarly]), "    Section s(&mu_);\n    n_--;\n    s.Leave();\n    n_++;")
	assert.Equal(t, "the other mode of Section, a class the code declares, is not known", ms[mutant.OpOtherMode].Void)
	assert.Equal(t, "the mutex class of Section, a class the code declares, is not known", ms[mutant.OpAnotherLock].Void)
	assert.Contains(t, text(t, ms[mutant.OpEmptySection]), "    Section{&mu_};\n")
}
