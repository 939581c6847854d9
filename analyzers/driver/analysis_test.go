package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnchorDir checks which package reports the invariants of other
// languages: the invariants file's own directory when it holds Go files,
// else the first one below it, breadth first, skipping what the go
// command skips.
func TestAnchorDir(t *testing.T) {
	tree := func(t *testing.T, files ...string) string {
		root := t.TempDir()
		for _, f := range files {
			p := filepath.Join(root, f)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte("package x\n"), 0o644))
		}
		return root
	}
	for _, c := range []struct {
		name  string
		files []string
		want  string // relative to the root; "-" for none
	}{
		{"root package", []string{"go.mod", "a.go", "p/p.go"}, "."},
		{"first directory in lexical order", []string{"go.mod", "z/z.go", "b/b.go", "native/buf.c"}, "b"},
		{"shallowest first", []string{"go.mod", "a/deep/d.go", "c/c.go"}, "c"},
		{"tests alone do not make a package", []string{"go.mod", "a/a_test.go", "b/b.go"}, "b"},
		{"skipped directories", []string{"go.mod", "testdata/t.go", "vendor/v/v.go", ".hidden/h.go", "_old/o.go", "x/x.go"}, "x"},
		{"a module in a subdirectory", []string{"README.md", "native/enc.c", "go/go.mod", "go/pool/pool.go"}, "go/pool"},
		{"none", []string{"go.mod", "native/buf.c"}, "-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := tree(t, c.files...)
			want := ""
			if c.want != "-" {
				want = filepath.Join(root, c.want)
			}
			assert.Equal(t, want, anchorDir(root))
		})
	}
}
