package docs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExtract(t *testing.T) {
	src := "// Package x does x.\n//\n// # Analyzer x\n//\n// x: check x things\n//\n// Details here.\n//\n// # Other\n//\n// Not this.\npackage x\n"
	assert.Equal(t, "check x things\n\nDetails here.", Extract(src, "x"))
	assert.Panics(t, func() { Extract("package x\n", "x") })
	assert.Panics(t, func() { Extract("// Package x.\n//\n// # Analyzer y\n//\n// y: s\npackage x\n", "x") })
	assert.Panics(t, func() { Extract("// Package x.\n//\n// # Analyzer x\n//\n// summary without name\npackage x\n", "x") })
}
