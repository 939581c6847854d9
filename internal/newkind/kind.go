package main

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"
)

// kind is what the templates need to know of the new kind.
type kind struct {
	Name string // the key in an invariant: guarded_by
	Pkg  string // the package and directory: guardedby
	Key  string // the rule's first key: call
	// Field is the Rule struct's field for Key: Call.
	Field string
	// TestPkg is the Go testdata package.
	TestPkg string
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// newKind checks the names and derives the rest.
func newKind(name, key string) (*kind, error) {
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("kind name %q: want lower-case words joined by _, like calls_once", name)
	}
	if !nameRE.MatchString(key) {
		return nil, fmt.Errorf("key %q: want lower-case words joined by _, like call", key)
	}
	pkg := strings.ReplaceAll(name, "_", "")
	if token.IsKeyword(pkg) {
		return nil, fmt.Errorf("kind name %q: its package name %s is a Go keyword", name, pkg)
	}
	var field strings.Builder
	for _, w := range strings.Split(key, "_") {
		field.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return &kind{Name: name, Pkg: pkg, Key: key, Field: field.String(), TestPkg: pkg + "data"}, nil
}

// dir is the kind's package directory below the checkout.
func (k *kind) dir() string { return "analyzers/kinds/" + k.Pkg }
