package cfamily

import (
	"strings"
	"testing"

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
