package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// TestRequiresAcrossPackages checks that a requires invariant reaches the
// packages that import its operations' package, two imports away, through
// facts; and that a package that does not import it is not loaded.
func TestRequiresAcrossPackages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("go.mod", "module example.com/req\n\ngo 1.22\n")
	write("gpu/gpu.go", `package gpu

import "sync"

var evalMu sync.Mutex

type Encoder struct{ n int }

func (e *Encoder) dispatchLocked() { e.n++ }

// Encode needs the lock: its callers hold it.
//
//guardlint:requires evalMu
func Encode(e *Encoder) { e.dispatchLocked() }

func Lock()   { evalMu.Lock() }
func Unlock() { evalMu.Unlock() }
`)
	write("mid/mid.go", `package mid

import "example.com/req/gpu"

func step(e *gpu.Encoder) { gpu.Encode(e) }

// Locked takes the lock through the declared helpers.
func Locked(e *gpu.Encoder) {
	gpu.Lock()
	defer gpu.Unlock()
	step(e)
}

// Step is a new entry point without the lock.
func Step(e *gpu.Encoder) { step(e) }
`)
	write("app/app.go", `package app

import "example.com/req/mid"

func Serve() { mid.Step(nil) }

func ServeLocked() { mid.Locked(nil) }
`)
	write("other/other.go", "package other\n\nfunc F() {}\n")
	write("guardlint.yaml", `version: 1
invariants:
  - id: dispatch-locked
    why: dispatches interleave
    function: (*./gpu.Encoder).dispatchLocked
    requires: {lock: ./gpu.evalMu, acquire: [./gpu.Lock], release: [./gpu.Unlock]}
`)
	set, err := invariants.Load(filepath.Join(dir, "guardlint.yaml"))
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
	assert.Equal(t, []string{"example.com/req/app", "example.com/req/gpu", "example.com/req/mid"}, relevant(set, listed))
}
