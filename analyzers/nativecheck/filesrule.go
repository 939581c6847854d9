package nativecheck

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// filesJob is an invariant checked over all the functions of its files.
type filesJob struct {
	inv      *invariants.Invariant
	rule     treesitter.FilesRule
	files    []string
	view     *overlay.Files // the sources' view (nil: the disk)
	patterns [][]string
	shapes   []model.Shape
}

// filesLookup is what checkFiles looks up and reads for a job.
type filesLookup struct {
	lookups []invariants.Name
	// words are those a function that does not parse must mention to be
	// reported; with skip, a file that mentions none is not parsed.
	words [][]byte
	skip  bool
	// once: a lookup defined more than once needs `all: true`.
	once bool
	only bool
}

// lookupOf is the job's lookup: the rule's own (treesitter.FilesLookup), or the
// invariant's functions and the words of its patterns and functions.
func lookupOf(j filesJob) filesLookup {
	inv := j.inv
	if fl, ok := j.rule.(treesitter.FilesLookup); ok {
		l := filesLookup{lookups: fl.Lookups(inv), only: fl.OnlyLookups(inv), once: true}
		for _, w := range fl.Mentions(inv) {
			l.words = append(l.words, []byte(w))
		}
		l.skip = len(l.words) > 0
		return l
	}
	l := filesLookup{lookups: inv.Functions}
	for _, p := range j.patterns {
		for _, t := range p {
			if isPatternWord(t) {
				l.words = append(l.words, []byte(t))
			}
		}
	}
	for _, n := range inv.Functions {
		l.words = append(l.words, []byte(n.Scoped[len(n.Scoped)-1]))
	}
	return l
}

// checkFiles checks an invariant of a treesitter.FilesRule kind: every function of
// every file of the globs (that mentions one of the lookup's words, when
// the rule says which) is handed to the rule at once. A function that
// does not parse and mentions one of the words cannot be verified (every
// one, when there are no words), nor can a lookup defined nowhere, or
// defined more than once without `all: true` when the rule asks for one.
func checkFiles(j filesJob, marks *marked, budget time.Duration) []core.Finding {
	inv := j.inv
	lang := treesitter.LanguageOf(inv.Lang)
	conf := treesitter.ConfigOf(inv, j.rule, j.patterns)
	l := lookupOf(j)
	mentions := func(src []byte) bool { return len(l.words) == 0 || mentionsAny(src, l.words) }
	found := make([][]string, len(l.lookups))
	var out []core.Finding
	var fns []*treesitter.Function
	parsed := treesitter.NewParsedFiles()
	for _, p := range j.files {
		src, err := treesitter.ReadSource(j.view, p)
		marks.note(p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "cannot read %s: %v", p, err))
			continue
		}
		if l.skip && !mentionsAny(src, l.words) {
			continue
		}
		f, err := treesitter.Parse(inv, p, src, budget)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "%v", err))
			continue
		}
		parsed.Add(f, src)
		for _, def := range lang.Functions(f, conf) {
			fn := parsed.Share(treesitter.NewRuleFunction(inv, f, def, lang, conf, j.patterns, j.shapes))
			lookup := false
			for i, n := range l.lookups {
				if fn.Is(n) {
					found[i] = append(found[i], fmt.Sprintf("%s at %s:%d", treesitter.Signature(def, lang.Params(f, def)), p, f.Position(def.Name.Start).Line))
					lookup = true
				}
			}
			if l.only && !lookup {
				continue
			}
			body := f.Src[def.Node.Start:def.Node.End]
			if bad := syntax.FirstBad(def.Node); bad != nil {
				if mentions(body) {
					out = append(out, unverifiable(inv, inv.Pos, "%s", treesitter.Unparsed(f, def, treesitter.Qualified(def), bad)))
				}
				continue
			}
			// The walkers the rules run recurse over the body; see
			// syntax.MaxDepth.
			if err := f.TooDeep(def.Node, treesitter.Qualified(def)); err != nil {
				if mentions(body) {
					out = append(out, unverifiable(inv, inv.Pos, "%v", err))
				}
				continue
			}
			fns = append(fns, fn)
		}
	}
	for i, at := range found {
		n := l.lookups[i]
		switch {
		case len(at) == 0:
			out = append(out, unverifiable(inv, n.Pos, "function %s not found in %s%s", n.Raw, treesitter.GlobList(inv), nearFunctions(inv, lang, conf, n, j.files, j.view, budget)))
		case len(at) > 1 && l.once && !inv.All:
			out = append(out, unverifiable(inv, n.Pos, "function %s is defined %d times (%s); name it more precisely, by its scope or its parameters, or set `all: true`", n.Raw, len(at), strings.Join(at, ", ")))
		}
	}
	if why := j.rule.CheckFiles(fns); why != "" {
		out = append(out, unverifiable(inv, inv.Pos, "%s", why))
	}
	for _, fn := range fns {
		out = append(out, fn.Findings()...)
	}
	return out
}

// mentionsAny reports whether src holds one of the words as a whole word.
func mentionsAny(src []byte, words [][]byte) bool {
	for _, w := range words {
		if treesitter.ContainsWord(src, w, false) {
			return true
		}
	}
	return false
}

// isPatternWord reports whether a token is an identifier, worth looking
// for in the bytes of a function.
func isPatternWord(t string) bool {
	return t != "" && bytes.IndexFunc([]byte(t), func(r rune) bool {
		return r != '_' && (r < '0' || r > '9') && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z')
	}) < 0
}
