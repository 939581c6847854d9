package driver

import (
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// TestRequiresAcrossPackages checks that a requires invariant reaches the
// packages that import its operations' package, two imports away, through
// facts; and that a package that does not import it is not loaded.
func TestRequiresAcrossPackages(t *testing.T) {
	// The requires rule's sample module, shared with the go vet and
	// golangci-lint tests: gpu (the operation and the lock), mid and app
	// importing it, other not.
	dir, err := filepath.Abs("../kinds/requires/testdata/module")
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Format(dir))
	}
	why := " (why: dispatches interleave)"
	assert.Equal(t, []string{
		"app/app.go:5:16: invariant dispatch-locked: exported function app.Serve calls mid.Step without holding gpu.evalMu (exclusive), and nothing shows its callers hold it: app.Serve → mid.Step → mid.step → gpu.Encode; every call of gpu.Encode needs the lock" + why,
		"mid/mid.go:15:29: invariant dispatch-locked: exported function mid.Step calls mid.step without holding gpu.evalMu (exclusive), and nothing shows its callers hold it: mid.Step → mid.step → gpu.Encode; every call of gpu.Encode needs the lock" + why,
	}, got)

	listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Dir: dir}, "./...")
	require.NoError(t, err)
	wanted, report := relevant(set, listed)
	assert.Equal(t, []string{"example.com/req/app", "example.com/req/gpu", "example.com/req/mid"}, wanted)
	assert.Equal(t, map[string]bool{"example.com/req/app": true, "example.com/req/gpu": true, "example.com/req/mid": true}, report)
}
