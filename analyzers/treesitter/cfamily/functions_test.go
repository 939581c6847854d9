package cfamily

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFunctionPaths(t *testing.T) {
	src := `
namespace a::b {
class Enc {
  void inline_m() {}
  ~Enc() {}
};
template <typename T> struct Box { void put(T) {} };
}
void a::b::Enc::out_of_line() {}
template <typename T> void Box<T>::get() {}
int *free_fn(void) { return 0; }
namespace {
void hidden() {
  struct Local { void f() {} };
}
}
#if 0
void disabled() {}
#endif
extern "C" { void c_api() {} }
`
	f, err := syntax.Parse("cpp", "x.cc", []byte(src))
	require.NoError(t, err)
	var got []string
	for _, fn := range functions(f, &model.Config{}) {
		got = append(got, strings.Join(fn.Path, "::"))
	}
	assert.Equal(t, []string{
		"a::b::Enc::inline_m", "a::b::Enc::~Enc", "a::b::Box::put", "a::b::Enc::out_of_line",
		"Box::get", "free_fn", "hidden", "c_api",
	}, got)
}

func TestFunctionsOfADeepFileDoNotRecurse(t *testing.T) {
	// A global initializer 300,000 parentheses deep, outside any function:
	// the lookup walks the whole file. With the stack held to 16 MiB, a
	// lookup that recursed once per level would die of a stack overflow.
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	const depth = 300_000
	src := "int x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + ";\nvoid f(void) {}\n"
	// The test is about the stack, not time: a parse budget no load on
	// the machine can exhaust.
	f, err := syntax.ParseWithin("c", "deep.c", []byte(src), time.Hour)
	require.NoError(t, err)
	var got []string
	for _, fn := range functions(f, &model.Config{}) {
		got = append(got, strings.Join(fn.Path, "::"))
	}
	assert.Equal(t, []string{"f"}, got)
}
