package main

import (
	"go/ast"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAfterUnlockPoints checks that the after-unlock rule picks, or
// refuses at the point its doc comment says, each function of
// testdata/afterunlock.
func TestAfterUnlockPoints(t *testing.T) {
	pkgs, err := load(".", []string{"./testdata/afterunlock"}, false)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	want := map[string]string{
		"add": "", "get": "", "sign": "", "check": "", "stamp": "", "find": "", "Error": "point 2", "rename": "", "drain": "", "keep": "point 3", "must": "", "zero": "",
		"size": "point 5", "last": "point 4", "del": "point 3", "set": "point 2", "setLast": "point 2",
		"withExpiry": "", "through": "point 4", "window": "", "wait": "", "String": "point 2", "named": "point 4", "undo": "",
		"retire": "point 2", "closed": "", "stale": "point 4",
		"asserted": "", "assertedShared": "point 4", "parked": "",
	}
	got := map[string]string{}
	for _, f := range pkgs[0].Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				_, got[fd.Name.Name] = afterUnlock(pkgs[0], fd)
			}
		}
	}
	require.Equal(t, want, got)
}

// TestLoadFailsOnBrokenPackage checks that a package that does not
// type-check is an error naming it, not a package left out.
func TestLoadFailsOnBrokenPackage(t *testing.T) {
	_, err := load(".", []string{"./testdata/broken"}, false)
	require.Error(t, err)
	require.Contains(t, err.Error(), "testdata/broken/broken.go:4")
}

// TestRefusalsNameTheStatement checks -refusals: a function point 4
// refuses is printed with the first statement after a release that the
// point does not allow, and a picked one is not printed.
func TestRefusalsNameTheStatement(t *testing.T) {
	pkgs, err := load(".", []string{"./testdata/afterunlock"}, false)
	require.NoError(t, err)
	var out strings.Builder
	refusals = &out
	defer func() { refusals = nil }()
	for _, f := range pkgs[0].Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && (fd.Name.Name == "last" || fd.Name.Name == "add") {
				afterUnlock(pkgs[0], fd)
			}
		}
	}
	require.Contains(t, out.String(), "point 4 refuses last: if n == 0 { return errLast }")
	require.NotContains(t, out.String(), "refuses add:")
}

// TestRestOfModulesLeavesOutWhatDoesNotLoad checks point 24's test of a
// package that loads: go list's errors for the package, and for a package
// it imports, leave it out; packages of other modules (nested ones) and
// packages already scanned are not its.
func TestRestOfModulesLeavesOutWhatDoesNotLoad(t *testing.T) {
	all, err := list(".", []string{"./testdata/missing", "./testdata/afterunlock"})
	require.NoError(t, err)
	require.Len(t, all, 2)
	mod := func(m string) *struct{ Path string } { return &struct{ Path string }{m} }
	for i := range all {
		all[i].Module = mod("m") // both are of the module point 24 loads
	}
	deps := []struct{ Err string }{{"could not import"}}
	all = append(all,
		listed{ImportPath: "m/imports-broken", Module: mod("m"), DepsErrors: deps},
		listed{ImportPath: "m/broken", Module: mod("m"), Error: &struct{ Err string }{"no Go files"}},
		listed{ImportPath: "m/nested/p", Module: mod("m/nested")},
		listed{ImportPath: "m/scanned", Module: mod("m")},
	)
	load, leftOut := loadable(all, []string{"m"}, map[string]bool{"m/scanned": true})
	require.Equal(t, []string{"github.com/guardlint/guardlint/bench/realgo/gen/testdata/afterunlock"}, load)
	require.Equal(t, []string{"m", "m", "m"}, leftOut)
}
