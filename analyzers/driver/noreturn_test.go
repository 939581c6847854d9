package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoReturnAcrossPackages checks that the standalone run knows the
// functions that never return wherever they are declared: in the target's
// package, in another package of the module it loads, and in the standard
// library, which it loads from export data only (its ctrlflow facts come
// from package stdfacts). No invariant names the other package of the
// module: it is loaded from source because a concerned package imports it. A call after each is dead, so each invariant
// fails at the call.
func TestNoReturnAcrossPackages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("go.mod", "module example.com/nr\n\ngo 1.22\n")
	write("fail/fail.go", `package fail

import "log"

// Fatalf never returns: log.Fatalf exits.
func Fatalf(format string, args ...any) { log.Fatalf(format, args...) }
`)
	write("p/p.go", `package p

import (
	"os"
	"testing"

	"example.com/nr/fail"
)

type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

func die() { os.Exit(1) }

func AfterExit(e *Encoder)              { os.Exit(1); e.retain() }
func AfterHelper(e *Encoder)            { die(); e.retain() }
func AfterOtherPackage(e *Encoder)      { fail.Fatalf("x"); e.retain() }
func AfterFatal(t *testing.T, e *Encoder) { t.Fatal("x"); e.retain() }
func Live(e *Encoder)                   { e.retain() }
`)
	write("guardlint.yaml", `version: 1
package: ./p
invariants:
  - {id: after-exit, why: w, function: AfterExit, call: {to: (*Encoder).retain}}
  - {id: after-helper, why: w, function: AfterHelper, call: {to: (*Encoder).retain}}
  - {id: after-other-package, why: w, function: AfterOtherPackage, call: {to: (*Encoder).retain}}
  - {id: after-fatal, why: w, function: AfterFatal, call: {to: (*Encoder).retain}}
  - {id: live, why: w, function: Live, call: {to: (*Encoder).retain}}
`)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	res, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	got := map[string]string{}
	for _, f := range res.Findings {
		got[f.ID] = f.Message
	}
	for _, id := range []string{"after-exit", "after-helper", "after-other-package", "after-fatal"} {
		assert.Contains(t, got[id], "this call does not count: it is after a terminating statement", id)
	}
	assert.NotContains(t, got, "live")
	assert.Len(t, got, 4)
}
