//go:build cgo

package cli

import (
	"github.com/guardlint/guardlint/analyzers/fix"
	"github.com/guardlint/guardlint/analyzers/prove"
)

// The commands that mutate or read code of every language link the
// tree-sitter front end: the full build has them (see native_nocgo.go).
var (
	proveMain   = prove.Main
	suggestMain = fix.SuggestMain
)
