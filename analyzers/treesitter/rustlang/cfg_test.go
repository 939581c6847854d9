package rustlang

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCfgPredicates(t *testing.T) {
	conf := &model.Config{Defines: []invariants.Define{
		{Name: "test", Values: []string{"true"}},
		{Name: "feature", Values: []string{"metal", "cuda"}},
		{Name: "debug_assertions", Values: []string{"false"}},
	}}
	for pred, want := range map[string]bool{
		"any()":                               false,
		"all()":                               true,
		"test":                                true,
		"unix":                                false,
		"debug_assertions":                    false,
		`feature = "metal"`:                   true,
		`feature = "vulkan"`:                  false,
		`all(test, feature = "cuda")`:         true,
		`not(any(unix, windows))`:             true,
		`any(not(test), target_os = "linux")`: false,
	} {
		f, err := syntax.Parse("rust", "x.rs", []byte("#[cfg("+pred+")]\nfn f() {}\n"))
		require.NoError(t, err)
		item := -1
		for i, n := range f.Root.Children {
			if n.Kind == "function_item" {
				item = i
			}
		}
		require.NotEqual(t, -1, item, pred)
		ok, _ := cfgEnabled(f, attrsBefore(f.Root.Children, item), conf)
		assert.Equal(t, want, ok, pred)
	}
}

func TestFunctionsFollowImplsAndCfg(t *testing.T) {
	src := `
mod gpu {
    impl<T> Encoder<T> { fn encode(&self) {} }
    impl Drop for crate::Buffer { fn drop(&mut self) {} }
    trait Pool { fn take(&self) { } }
    #[cfg(any())]
    impl Encoder { fn encode(&self) {} }
}
fn main() { fn nested() {} }
`
	f, err := syntax.Parse("rust", "x.rs", []byte(src))
	require.NoError(t, err)
	var got []string
	for _, fn := range functions(f, &model.Config{}) {
		got = append(got, strings.Join(fn.Path, "::"))
	}
	assert.Equal(t, []string{"gpu::Encoder::encode", "gpu::Buffer::drop", "gpu::Pool::take", "main"}, got)
}

func TestFunctionsOfDeepModulesDoNotRecurse(t *testing.T) {
	// Modules 100,000 deep, with a function in each: with the stack held
	// to 8 MiB, a lookup that recursed once per module would die of a
	// stack overflow. It follows model.MaxScope modules, so that the
	// paths it copies stay short.
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	const depth = 100_000
	src := strings.Repeat("mod m { fn f() {}", depth) + strings.Repeat("}", depth) + "\nfn g() {}\n"
	// The test is about the stack, not time: a parse budget no load on
	// the machine can exhaust.
	f, err := syntax.ParseWithin("rust", "deep.rs", []byte(src), time.Hour)
	require.NoError(t, err)
	fns := functions(f, &model.Config{})
	require.Len(t, fns, model.MaxScope+1)
	assert.Len(t, fns[model.MaxScope-1].Path, model.MaxScope+1)
	assert.Equal(t, []string{"g"}, fns[model.MaxScope].Path)
}
