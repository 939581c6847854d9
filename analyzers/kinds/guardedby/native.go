//go:build cgo

package guardedby

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet. The C, C++, CUDA and Rust check is not written
// yet: until it is, every invariant of those languages is reported as one
// that cannot be verified, never passed.

var _ treesitter.FilesRule = (*Rule)(nil)

// Patterns implements treesitter.FilesRule: the lock.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Lock} }

// CheckFiles implements treesitter.FilesRule.
func (r *Rule) CheckFiles([]*treesitter.Function) string {
	return "guarded_by is not checked in C/C++/Rust yet"
}
