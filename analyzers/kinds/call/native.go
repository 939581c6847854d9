//go:build cgo

package call

import (
	"fmt"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet: the rule over C, C++, CUDA and Rust code. A call
// matches the `to` pattern by its tokens, or is a call of a helper under
// `via` by the helper's own name (`retain_all()`, `self.retain_all()`).

// Patterns implements treesitter.FunctionRule: to, then its
// alternatives.
func (r *Rule) Patterns() []invariants.Name { return append([]invariants.Name{r.To}, r.Or...) }

// SeenPatterns implements treesitter.SeenCalls: each alternative of the
// call must be mentioned in the files, or a misspelt one would never be
// reported at all. The call itself is not asked: a misspelt one already
// fails every target ("contains no live call of it"), and so does a call
// that a patch of the sources has yet to add.
func (r *Rule) SeenPatterns() []invariants.Name { return r.Or }

// Helpers implements treesitter.HelperRule.
func (r *Rule) Helpers() []invariants.Name { return r.Via }

// Check implements treesitter.FunctionRule.
func (r *Rule) Check(fn *treesitter.Function) { verdict(fn, r.nativeFacts(fn, r.EveryPath)) }

// CheckHelper implements treesitter.HelperRule: a helper stands in for
// the call when it makes the call on every path.
func (r *Rule) CheckHelper(fn *treesitter.Function) string {
	probe := *fn
	verdict(&probe, r.nativeFacts(&probe, true))
	if fs := probe.Findings(); len(fs) > 0 {
		return fmt.Sprintf("%s does not call %s on every path (%s:%d)", fn.Name(), r.callees(), filepath.Base(fs[0].Pos.Filename), fs[0].Pos.Line)
	}
	return ""
}

// nativeFacts gathers the facts of one definition.
func (r *Rule) nativeFacts(fn *treesitter.Function, everyPath bool) facts[treesitter.Site] {
	f := facts[treesitter.Site]{fn: fn.Name(), at: fn.At(), want: r.callees()}
	var live []*syntax.Node
	for _, c := range fn.Calls() {
		if !matchesAny(&c, fn.Patterns) && !r.viaCall(&c) {
			continue
		}
		f.calls = append(f.calls, treesitter.Occurrence{At: c.Node, Liveness: c.Liveness})
		if c.Live() {
			live = append(live, c.Node)
		}
	}
	if !everyPath || len(live) == 0 {
		return f
	}
	dom := fn.Dominance(live)
	for _, e := range fn.Exits() {
		switch {
		case e.End && !dom.Always():
			f.unreached = append(f.unreached, e)
		case !e.End && !dom.Dominated(e.At):
			f.unreached = append(f.unreached, e)
		}
	}
	return f
}

// matchesAny reports whether a call matches one of the patterns: the
// callee or one of its alternatives.
func matchesAny(c *model.Call, patterns [][]string) bool {
	for _, p := range patterns {
		if model.MatchCall(c, p) {
			return true
		}
	}
	return false
}

// viaCall reports whether a call is a call of one of the rule's helpers.
func (r *Rule) viaCall(c *model.Call) bool {
	for _, h := range r.Via {
		if model.MatchTail(c.Callee, []string{h.Scoped[len(h.Scoped)-1]}) {
			return true
		}
	}
	return false
}

// PatternUses implements treesitter.PatternUser: every pattern is a call.
func (r *Rule) PatternUses() []model.Use {
	uses := make([]model.Use, 1+len(r.Or))
	for i := range uses {
		uses[i] = model.UseCall
	}
	return uses
}
