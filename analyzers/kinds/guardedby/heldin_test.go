package guardedby_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/guardlint/guardlint/analyzers/registry"
)

// held_in is read by the tree-sitter facet only: a Go invariant that sets
// it is an error at the key, not a key silently ignored.
func TestHeldInGoRejected(t *testing.T) {
	p := filepath.Join(t.TempDir(), "guardlint.yaml")
	require.NoError(t, os.WriteFile(p, []byte(`version: 1
invariants:
  - id: t-n
    why: bumped by every worker
    field: (*example.com/x.T).n
    guarded_by:
      lock: mu
      held_in: [Inc]
`), 0o644))
	_, err := registry.Load(p)
	require.Error(t, err)
	require.Contains(t, err.Error(), "guardlint.yaml:8:7: invariant t-n: guarded_by.held_in is checked for lang c, cpp, cuda, rust, metal, not for Go")
}
