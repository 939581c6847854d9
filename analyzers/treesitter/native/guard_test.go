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
