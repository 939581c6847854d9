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
