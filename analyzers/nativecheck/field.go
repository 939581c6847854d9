package nativecheck

import (
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// checkField checks an invariant on a field (Type::field) in every file
// of the globs: every function that is not one of the rule's writers
// hands its writes of the field to the rule. Files that mention neither
// the field nor a writer are skipped unparsed. A writer found nowhere, or
// a function that mentions the field and does not parse, cannot be
// verified.
func checkField(inv *invariants.Invariant, rule treesitter.FieldRule, files []string, view *overlay.Files, marks *marked, budget time.Duration) []core.Finding {
	lang := treesitter.LanguageOf(inv.Lang)
	conf := treesitter.ConfigOf(inv, rule, nil)
	scoped := inv.Field.Scoped
	typ, field := scoped[len(scoped)-2], scoped[len(scoped)-1]
	writerNames := rule.WriterNames()
	words := [][]byte{[]byte(field), []byte(typ)}
	decls := newTypeFields()

	for _, w := range writerNames {
		words = append(words, []byte(strings.TrimPrefix(w.Scoped[len(w.Scoped)-1], "~")))
	}
	found := make([]bool, len(writerNames))
	var out []core.Finding
	for _, p := range files {
		src, err := treesitter.ReadSource(view, p)
		marks.note(p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Field.Pos, "cannot read %s: %v", p, err))
			continue
		}
		mentions := false
		for _, w := range words {
			if treesitter.ContainsWord(src, w, false) {
				mentions = true
				break
			}
		}
		if !mentions {
			continue
		}
		f, err := treesitter.Parse(inv, p, src, budget)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Field.Pos, "%v", err))
			continue
		}
		decls.add(f, typ)
		for _, fn := range lang.Functions(f, conf) {
			owner := false
			for i, w := range writerNames {
				if fn.Matches(w.Scoped) {
					found[i], owner = true, true
				}
			}
			if owner {
				continue
			}
			if bad := syntax.FirstBad(fn.Node); bad != nil {
				if treesitter.ContainsWord(f.Src[fn.Node.Start:fn.Node.End], []byte(field), false) {
					pos := f.Position(bad.Start)
					out = append(out, unverifiable(inv, inv.Field.Pos, "%s mentions %s and does not parse: a syntax error at %s:%d:%d", treesitter.Qualified(fn), field, pos.Filename, pos.Line, pos.Column))
				}
				continue
			}
			if err := f.TooDeep(fn.Node, "it"); err != nil {
				if treesitter.ContainsWord(f.Src[fn.Node.Start:fn.Node.End], []byte(field), false) {
					out = append(out, unverifiable(inv, inv.Field.Pos, "%s mentions %s and %v", treesitter.Qualified(fn), field, err))
				}
				continue
			}
			if ws := lang.Writes(f, fn, typ, field, conf); len(ws) > 0 {
				def := treesitter.NewRuleFunction(inv, f, fn, lang, conf, nil, nil)
				rule.CheckWrites(def, ws)
				out = append(out, def.Findings()...)
			}
		}
	}
	if why := decls.missing(inv, typ, field); why != "" {
		out = append(out, unverifiable(inv, inv.Field.Pos, "%s", why))
	}
	for i, ok := range found {
		if !ok {
			w := writerNames[i]
			out = append(out, unverifiable(inv, w.Pos, "writer %s not found in %s%s", w.Raw, treesitter.GlobList(inv), nearFunctions(inv, lang, conf, w, files, view, budget)))
		}
	}
	return out
}

// ownsJob is an invariant on a field with its files.
type ownsJob struct {
	inv   *invariants.Invariant
	rule  treesitter.FieldRule
	files []string
	view  *overlay.Files // nil: the disk
}
