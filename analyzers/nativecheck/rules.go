package nativecheck

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// check checks one definition of a target. A definition with a syntax
// error inside cannot be verified: tree-sitter recovers around errors, and
// the recovered tree may hide or invent the very call the rule looks for.
func (t *target) check(f *syntax.File, def *model.Func) match {
	m := match{pos: f.Position(def.Name.Start)}
	params := t.lang.Params(f, def)
	m.sig = treesitter.Signature(def, params)
	if t.params != nil && !model.SameParams(params, t.params) {
		m.other = true
		return m
	}
	if bad := syntax.FirstBad(def.Node); bad != nil {
		m.bad = treesitter.Unparsed(f, def, t.name.Raw, bad)
		return m
	}
	// The walkers the rules run recurse over the body; see syntax.MaxDepth.
	if err := f.TooDeep(def.Node, t.name.Raw); err != nil {
		m.bad = err.Error()
		return m
	}
	fn := treesitter.NewRuleFunction(t.inv, f, def, t.lang, t.conf, t.patterns, t.shapes)
	if t.helper {
		if why := t.rule.(treesitter.HelperRule).CheckHelper(fn); why != "" {
			m.bad = why
		}
		return m
	}
	t.rule.Check(fn)
	m.findings = fn.Findings()
	return m
}
