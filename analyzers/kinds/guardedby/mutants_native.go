//go:build cgo

package guardedby

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// notNative is why an invariant of C, C++, CUDA or Rust cannot be proved
// yet: the tree-sitter check is not written (native.go).
const notNative = "guarded_by is not checked in C/C++/Rust yet"

var _ native.Rule = (*Rule)(nil)

// NativeOps implements native.Rule.
func (r *Rule) NativeOps(native.Dialect) []string { return []string{opLockDeleted} }

// NativeMutants implements native.Rule: one void mutant that says why.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	return []*mutant.Mutant{mutant.VoidMutant(c.Inv, c.Inv.Field.Raw, opLockDeleted, notNative)}
}

// NativeVacuity implements native.Rule: the invariant constrains nothing
// until the check exists.
func (r *Rule) NativeVacuity(*native.Code) []string { return []string{notNative} }
