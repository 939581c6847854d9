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
	for _, bad := range []string{"", "::", "a::", "a::::b", "~A::b", "a b", "a::b<T>", "(*p.T).m"} {
		_, err := parseScoped(bad)
		assert.Error(t, err, bad)
	}
}
