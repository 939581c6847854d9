//go:build !cgo

package driver

import (
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// NativeFront says whether this build checks C, C++, CUDA, Rust and
// Metal code. A build without cgo (the go vet tool and the golangci-lint
// plugin built with CGO_ENABLED=0, a nogo analyzer set) links no
// tree-sitter grammar, so it checks Go invariants only.
const NativeFront = false

// NativeFiles reports every invariant of the set that names C, C++, CUDA,
// Rust or Metal code as not checkable by this build, at its line in the
// invariants file: such an invariant fails closed here, it never passes
// silently.
func NativeFiles(set *invariants.Set, _ *overlay.Files, _ time.Duration) []core.Finding {
	var out []core.Finding
	for _, inv := range set.Invariants {
		if inv.Lang.TreeSitter() {
			out = append(out, core.Unverifiable(inv, inv.Pos, NotCheckedHere))
		}
	}
	return out
}
