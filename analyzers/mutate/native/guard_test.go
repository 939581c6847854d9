package native_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/mutate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnotherLockOfAGuardNamedAsItsMutex checks that another-lock
// replaces the locked expression, not the guard's name when the two are
// spelled alike.
func TestAnotherLockOfAGuardNamedAsItsMutex(t *testing.T) {
	const src = "impl S {\n    fn f(&self) {\n        let mut files = files.lock().unwrap();\n        files.sort();\n    }\n}\n"
	ms := mutants(t, code(t, "rust", "a.rs", src, "S::f", "hold: {lock: files}"))
	assert.Contains(t, text(t, ms[mutate.OpAnotherLock]), "let mut files = GUARDLINT_OTHER_MU.lock().unwrap();")
}

// TestTargetsByParameterList checks that a target named with its
// parameter list is mutated in that overload alone.
func TestTargetsByParameterList(t *testing.T) {
	const src = "struct S {\n  std::mutex mu;\n  void f(int a) {\n    std::lock_guard<std::mutex> l(mu);\n    g(a);\n  }\n  void f(double b) {\n    std::lock_guard<std::mutex> l(mu);\n    g(b);\n  }\n};\n"
	c := code(t, "cpp", "a.cc", src, "\"S::f(double)\"", "hold: {lock: mu}")
	require.Len(t, c.Targets(), 1)
	assert.Equal(t, 7, c.Targets()[0].File.Position(c.Targets()[0].Func.Node.Start).Line)
}
