//go:build cgo

package driver

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// NativeFront says whether this build checks C, C++, CUDA, Rust and
// Metal code: the tree-sitter front end is C code linked through cgo, so
// a build without cgo has none (see native_nocgo.go).
const NativeFront = true

// NativeFiles is Native over a view of the sources (nil: the disk), with
// no patch chain applied beyond what the view holds.
func NativeFiles(set *invariants.Set, files *overlay.Files, budget time.Duration) []core.Finding {
	return nativecheck.Check(set, nativecheck.Options{Files: files, ParseBudget: budget})
}
