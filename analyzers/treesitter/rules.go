package treesitter

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// check checks one definition of a target. A definition with a syntax
// error inside cannot be verified: tree-sitter recovers around errors, and
// the recovered tree may hide or invent the very call the rule looks for.
func (t *target) check(f *syntax.File, def *model.Func) match {
	m := match{pos: f.Position(def.Name.Start)}
	params := t.lang.Params(f, def)
	m.sig = signature(def, params)
	if t.params != nil && !model.SameParams(params, t.params) {
		m.other = true
		return m
	}
	if bad := syntax.FirstBad(def.Node); bad != nil {
		m.bad = unparsed(f, def, t.name.Raw, bad)
		return m
	}
	// The walkers the rules run recurse over the body; see syntax.MaxDepth.
	if err := f.TooDeep(def.Node, t.name.Raw); err != nil {
		m.bad = err.Error()
		return m
	}
	fn := &Function{Inv: t.inv, File: f, Func: def, Patterns: t.patterns, Shapes: t.shapes, lang: t.lang, conf: t.conf}
	if t.helper {
		if why := t.rule.(HelperRule).CheckHelper(fn); why != "" {
			m.bad = why
		}
		return m
	}
	t.rule.Check(fn)
	m.findings = fn.findings
	return m
}

// signature names a definition with its parameter types, as a target
// that selects it is written: synchronize(Stream), Registry::add(const
// Key&, int).
func signature(fn *model.Func, params [][]string) string {
	var ps []string
	for _, p := range params {
		ps = append(ps, joinTokens(p))
	}
	return qualified(fn) + "(" + strings.Join(ps, ", ") + ")"
}

// joinTokens writes tokens back as source: a space between two words,
// none around punctuation (`const Stream &` is `const Stream&`).
func joinTokens(toks []string) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && isWord(toks[i-1]) && isWord(t) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

// isWord reports whether a token starts with an identifier byte.
func isWord(t string) bool { return t != "" && isIdentByte(t[0]) }

// qualified names a function for messages.
func qualified(fn *model.Func) string { return strings.Join(fn.Path, "::") }
