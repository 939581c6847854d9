package treesitter

import (
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// checkOwns checks an owns invariant: the field (Type::field) is written
// only inside the writers, in every file of the globs. Files that mention
// neither the field nor a writer are skipped unparsed. A writer found
// nowhere, or a function that mentions the field and does not parse,
// cannot be verified.
func checkOwns(inv *invariants.Invariant, files []string, marks *marked, budget time.Duration) []Finding {
	lang := languages[inv.Lang]
	conf := &model.Config{Defines: inv.Defines}
	scoped := inv.Field.Scoped
	typ, field := scoped[len(scoped)-2], scoped[len(scoped)-1]
	words := [][]byte{[]byte(field)}
	for _, w := range inv.Owns.Writers {
		words = append(words, []byte(strings.TrimPrefix(w.Scoped[len(w.Scoped)-1], "~")))
	}
	var writers []string
	for _, w := range inv.Owns.Writers {
		writers = append(writers, w.Raw)
	}
	found := make([]bool, len(inv.Owns.Writers))
	var out []Finding
	for _, p := range files {
		src, err := syntax.ReadFile(p)
		marks.note(p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Field.Pos, "cannot read %s: %v", p, err))
			continue
		}
		mentions := false
		for _, w := range words {
			if containsWord(src, w, false) {
				mentions = true
				break
			}
		}
		if !mentions {
			continue
		}
		f, err := syntax.ParseWithin(syntax.Lang(inv.Lang), p, src, budget)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Field.Pos, "%v", err))
			continue
		}
		for _, fn := range lang.Functions(f, conf) {
			owner := false
			for i, w := range inv.Owns.Writers {
				if fn.Matches(w.Scoped) {
					found[i], owner = true, true
				}
			}
			if owner {
				continue
			}
			if bad := syntax.FirstBad(fn.Node); bad != nil {
				if containsWord(f.Src[fn.Node.Start:fn.Node.End], []byte(field), false) {
					pos := f.Position(bad.Start)
					out = append(out, unverifiable(inv, inv.Field.Pos, "%s mentions %s and does not parse: a syntax error at %s:%d:%d", qualified(fn), field, pos.Filename, pos.Line, pos.Column))
				}
				continue
			}
			if err := f.TooDeep(fn.Node, "it"); err != nil {
				if containsWord(f.Src[fn.Node.Start:fn.Node.End], []byte(field), false) {
					out = append(out, unverifiable(inv, inv.Field.Pos, "%s mentions %s and %v", qualified(fn), field, err))
				}
				continue
			}
			for _, w := range lang.Writes(f, fn, typ, field, conf) {
				switch {
				case w.Dead == "":
					out = append(out, report(inv, f, w.Node, "field %s is written here by %s; only %s may write it", inv.Field.Raw, qualified(fn), strings.Join(writers, ", ")))
				case w.MayRun:
					out = append(out, report(inv, f, w.Node, "field %s is written here by %s, and this write might run: it is %s; only %s may write it", inv.Field.Raw, qualified(fn), w.Dead, strings.Join(writers, ", ")))
				}
			}
		}
	}
	for i, ok := range found {
		if !ok {
			w := inv.Owns.Writers[i]
			out = append(out, unverifiable(inv, w.Pos, "writer %s not found in %s", w.Raw, globList(inv)))
		}
	}
	return out
}

// ownsJob is an owns invariant of a check with its files.
type ownsJob struct {
	inv   *invariants.Invariant
	files []string
}
