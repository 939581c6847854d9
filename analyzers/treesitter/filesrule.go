package treesitter

import (
	"bytes"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// filesJob is an invariant checked over all the functions of its files.
type filesJob struct {
	inv      *invariants.Invariant
	rule     FilesRule
	files    []string
	patterns [][]string
	view     *overlay.Files // the sources' view (nil: the disk)
}

// checkFiles checks an invariant of a FilesRule kind: every function of
// every file of the globs is handed to the rule at once. A function that
// does not parse and mentions a pattern or a target cannot be verified;
// nor can a target of the invariant defined nowhere.
func checkFiles(j filesJob, marks *marked, budget time.Duration) []core.Finding {
	inv := j.inv
	lang := languages[inv.Lang]
	conf := &model.Config{Defines: inv.Defines}
	var words [][]byte
	for _, p := range j.patterns {
		for _, t := range p {
			if isWord(t) {
				words = append(words, []byte(t))
			}
		}
	}
	for _, n := range inv.Functions {
		words = append(words, []byte(n.Scoped[len(n.Scoped)-1]))
	}
	found := make([]bool, len(inv.Functions))
	var out []core.Finding
	var fns []*Function
	for _, p := range j.files {
		src, err := readSource(j.view, p)
		marks.note(p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "cannot read %s: %v", p, err))
			continue
		}
		f, err := syntax.ParseWithin(syntax.Lang(inv.Lang), p, src, budget)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "%v", err))
			continue
		}
		for _, def := range lang.Functions(f, conf) {
			for i, n := range inv.Functions {
				found[i] = found[i] || def.Matches(n.Scoped)
			}
			if bad := syntax.FirstBad(def.Node); bad != nil {
				if mentionsAny(f.Src[def.Node.Start:def.Node.End], words) {
					pos := f.Position(bad.Start)
					out = append(out, unverifiable(inv, inv.Pos, "%s does not parse: a syntax error at %s:%d:%d", qualified(def), pos.Filename, pos.Line, pos.Column))
				}
				continue
			}
			if err := f.TooDeep(def.Node, qualified(def)); err != nil {
				if mentionsAny(f.Src[def.Node.Start:def.Node.End], words) {
					out = append(out, unverifiable(inv, inv.Pos, "%v", err))
				}
				continue
			}
			fns = append(fns, &Function{Inv: inv, File: f, Func: def, Patterns: j.patterns, lang: lang, conf: conf})
		}
	}
	for i, ok := range found {
		if !ok {
			n := inv.Functions[i]
			out = append(out, unverifiable(inv, n.Pos, "function %s not found in %s", n.Raw, globList(inv)))
		}
	}
	if why := j.rule.CheckFiles(fns); why != "" {
		out = append(out, unverifiable(inv, inv.Pos, "%s", why))
	}
	for _, fn := range fns {
		out = append(out, fn.findings...)
	}
	return out
}

// mentionsAny reports whether src holds one of the words as a whole word.
func mentionsAny(src []byte, words [][]byte) bool {
	for _, w := range words {
		if containsWord(src, w, false) {
			return true
		}
	}
	return false
}

// isWord reports whether a token is an identifier, worth looking for in
// the bytes of a function.
func isWord(t string) bool {
	return t != "" && bytes.IndexFunc([]byte(t), func(r rune) bool {
		return r != '_' && (r < '0' || r > '9') && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z')
	}) < 0
}
