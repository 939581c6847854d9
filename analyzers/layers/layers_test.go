package layers_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/guardlint/guardlint/"

// imports lists, with go list run at the module's root, every package of
// the module with the module's packages it imports (not its tests').
func imports(t *testing.T, env ...string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	require.NoError(t, err)
	graph := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		require.True(t, ok, fields[0])
		graph[pkg] = nil
		for _, imp := range fields[1:] {
			if p, ok := strings.CutPrefix(imp, module); ok {
				graph[pkg] = append(graph[pkg], p)
			}
		}
	}
	return graph
}

// TestLayerOrder checks every import between the module's packages
// against the layers: every package of the linter has a unit, no import
// points up, the units of one layer do not import each other, and the
// linter imports nothing outside it.
func TestLayerOrder(t *testing.T) {
	graph := imports(t)
	require.NotEmpty(t, graph)
	for pkg, imps := range graph {
		if layers.IsOutside(pkg) {
			continue
		}
		unit, layer, ok := layers.Of(pkg)
		if !assert.True(t, ok, "package %s has no layer: add it to layers.Units", pkg) {
			continue
		}
		for _, imp := range imps {
			if !assert.False(t, layers.IsOutside(imp), "%s imports %s, which is not the linter", pkg, imp) {
				continue
			}
			iunit, ilayer, ok := layers.Of(imp)
			if !ok {
				continue // reported as a package without a layer
			}
			assert.LessOrEqual(t, ilayer, layer, "%s (%s) imports %s (%s): an import up the layers", pkg, layer, imp, ilayer)
			if ilayer == layer {
				assert.Equal(t, unit, iunit, "%s imports %s: two units of the %s layer must not depend on each other", pkg, imp, layer)
			}
		}
	}
}

// TestCgoFreeSurfaces checks that the surfaces a Go-only user builds
// without a C compiler (the command, whose build without cgo serves go
// vet and nogo, and the golangci-lint plugin) link no package of the
// tree-sitter front end, nor its run, in a build without cgo.
func TestCgoFreeSurfaces(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/guardlint", "./analyzers/golangci")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	require.NoError(t, err)
	for line := range strings.Lines(string(out)) {
		p := strings.TrimSpace(line)
		treeSitter := strings.HasPrefix(p, module+"analyzers/treesitter") || strings.HasPrefix(p, module+"analyzers/nativecheck") || strings.HasPrefix(p, "github.com/tree-sitter")
		assert.False(t, treeSitter, "a build without cgo links %s", p)
	}
}
