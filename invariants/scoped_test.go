package invariants

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScopedNames(t *testing.T) {
	for in, want := range map[string][]string{
		"f":                 {"f"},
		"Class::method":     {"Class", "method"},
		"ns::Class::~Class": {"ns", "Class", "~Class"},
		"::gpu::encode":     {"", "gpu", "encode"},
	} {
		n, err := parseScoped(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, n.Scoped, in)
	}
	for in, want := range map[string]string{
		"synchronize(Stream)":                      "(Stream)",
		"synchronize()":                            "()",
		"Buffer::copy(const Buffer&, std::size_t)": "(const Buffer&, std::size_t)",
		"f(std::map<int, int>, int (*)(int))":      "(std::map<int, int>, int (*)(int))",
	} {
		n, err := parseScoped(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, n.Params, in)
	}
	for _, bad := range []string{"", "::", "a::", "a::::b", "~A::b", "a b", "a::b<T>", "(*p.T).m", "f(", "f(a))", "f(a)b", "f(a>"} {
		_, err := parseScoped(bad)
		assert.Error(t, err, bad)
	}
}
