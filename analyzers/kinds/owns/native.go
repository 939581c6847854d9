//go:build cgo

package owns

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// WriterNames implements treesitter.FieldRule.
func (r *Rule) WriterNames() []invariants.Name { return r.Writers }

// CheckWrites implements treesitter.FieldRule.
func (r *Rule) CheckWrites(fn *treesitter.Function, ws []model.Write) {
	writers := make([]string, len(r.Writers))
	for i, w := range r.Writers {
		writers[i] = w.Raw
	}
	out := make([]write[treesitter.Site], len(ws))
	for i, w := range ws {
		out[i] = write[treesitter.Site]{Occurrence: treesitter.Occurrence{At: w.Node, Liveness: w.Liveness}, by: fn.Name()}
	}
	verdict(fn, fn.Inv.Field.Raw, writers, out)
}
