package treesitter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/cfamily"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/rustlang"
	"github.com/guardlint/guardlint/invariants"
)

// What an invariant needs before its files are read: its language, its
// patterns and their shapes, its configuration and its files. The check
// (analyzers/nativecheck) and a Source (the prover's view) prepare an
// invariant here, so that both see the same files and the same facts.

// languages maps a `lang` to its front end.
var languages = map[invariants.Lang]model.Language{
	invariants.LangC:     cfamily.Language{Lang: "c"},
	invariants.LangCPP:   cfamily.Language{Lang: "cpp"},
	invariants.LangCUDA:  cfamily.Language{Lang: "cuda"},
	invariants.LangRust:  rustlang.Language{},
	invariants.LangMetal: cfamily.Language{Lang: "metal"},
}

// LanguageOf returns the front end of a `lang`, nil for a lang the
// tree-sitter front end does not check.
func LanguageOf(l invariants.Lang) model.Language { return languages[l] }

// Prepare reads what a rule of one invariant needs before its files are
// parsed: its patterns and the shapes it uses, in the invariant's
// language, and the files its globs match, which it records in matched for
// the suppression comments. A pattern that does not read makes the
// invariant unverifiable, and then no file is returned.
func Prepare(inv *invariants.Invariant, lang model.Language, r any, names []invariants.Name, expanded map[string][]string, view *overlay.Files, matched map[string]invariants.Lang) ([][]string, []model.Shape, []string, []core.Finding) {
	patterns, perr := rulePatterns(inv, lang, names)
	var shapes []model.Shape
	if perr == nil {
		shapes, perr = checkUses(inv, lang, r)
	}
	if perr != nil {
		return nil, nil, nil, []core.Finding{core.Unverifiable(inv, perr.pos, "%v", perr.err)}
	}
	files, errs := ExpandFiles(inv, expanded, view)
	for _, p := range files {
		matched[p] = inv.Lang
	}
	return patterns, shapes, files, errs
}

// ExpandFiles expands the globs of an invariant, each once per run
// (expanded caches them by glob), and leaves out what its `!pattern`s
// match; a glob that matches nothing or cannot be read is a finding.
func ExpandFiles(inv *invariants.Invariant, expanded map[string][]string, view *overlay.Files) ([]string, []core.Finding) {
	var files []string
	var out []core.Finding
	base := filepath.Dir(inv.File.Path)
	var excludes []string
	for _, g := range inv.Files {
		if pattern, ok := g.Excluded(); ok {
			abs, _, _ := invariants.GlobRoot(base, pattern)
			excludes = append(excludes, abs)
			continue
		}
		key := fmt.Sprintf("%s\x00%s\x00%t", base, g.Pattern, inv.IncludeIgnored)
		m, ok := expanded[key]
		if !ok {
			var err error
			if m, err = expandWith(base, g, view, inv.IncludeIgnored); err != nil {
				out = append(out, core.Unverifiable(inv, g.Pos, "files %q: %v", g.Pattern, err))
				continue
			}
			expanded[key] = m
		}
		if len(m) == 0 {
			out = append(out, core.Unverifiable(inv, g.Pos, "files %q matches no file", g.Pattern))
			continue
		}
		files = append(files, m...)
	}
	if len(excludes) == 0 {
		return files, out
	}
	// `!pattern` leaves out what it matches of the other globs' files.
	kept := files[:0:0]
	for _, p := range files {
		if !slices.ContainsFunc(excludes, func(x string) bool { return invariants.MatchGlob(x, filepath.ToSlash(p)) }) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 && len(files) > 0 {
		out = append(out, core.Unverifiable(inv, inv.Files[0].Pos, "files %s: the excludes leave no file", GlobList(inv)))
	}
	return kept, out
}

// GlobList lists an invariant's globs for messages.
func GlobList(inv *invariants.Invariant) string {
	var s []string
	for _, g := range inv.Files {
		s = append(s, g.Pattern)
	}
	return strings.Join(s, ", ")
}

// patternError is a pattern that does not parse, with where it is written.
type patternError struct {
	pos invariants.Pos
	err error
}

// checkUses reports the first pattern of a rule that can never match
// what the rule looks for with it (PatternUser): a forbid of `m[k]`,
// which is no call, would pass whatever the code does.
func checkUses(inv *invariants.Invariant, lang model.Language, r any) ([]model.Shape, *patternError) {
	pu, ok := r.(PatternUser)
	if !ok {
		return nil, nil
	}
	uses := pu.PatternUses()
	var shapes []model.Shape
	for i, n := range r.(interface{ Patterns() []invariants.Name }).Patterns() {
		if i >= len(uses) {
			break
		}
		src := n.Raw
		if inv.Lang == invariants.LangRust {
			src = strings.TrimSuffix(src, "!")
		}
		shape, err := lang.PatternShape(src)
		if err != nil {
			return nil, &patternError{n.Pos, err}
		}
		if why := uses[i].Accepts(shape); why != "" {
			return nil, &patternError{n.Pos, fmt.Errorf("pattern %q can never match: %s", n.Raw, why)}
		}
		shapes = append(shapes, shape)
	}
	return shapes, nil
}

// rulePatterns parses the patterns of a rule, stopping at the first that
// does not parse.
func rulePatterns(inv *invariants.Invariant, lang model.Language, names []invariants.Name) ([][]string, *patternError) {
	var out [][]string
	for _, n := range names {
		toks, perr := rulePattern(inv, lang, n)
		if perr != nil {
			return nil, perr
		}
		out = append(out, toks)
	}
	return out, nil
}

// rulePattern parses a pattern in the invariant's language. A Rust
// pattern that ends in `!` names a macro by its path.
func rulePattern(inv *invariants.Invariant, lang model.Language, n invariants.Name) ([]string, *patternError) {
	src, macro := n.Raw, false
	if inv.Lang == invariants.LangRust && strings.HasSuffix(src, "!") {
		src, macro = strings.TrimSuffix(src, "!"), true
	}
	toks, err := lang.Pattern(src)
	if err != nil {
		return nil, &patternError{n.Pos, err}
	}
	if macro {
		toks = append(toks, "!")
	}
	return toks, nil
}

// ConfigOf is what an invariant sets for the evaluation of its functions:
// its defines and runners, and what its rule says of locks.
func ConfigOf(inv *invariants.Invariant, rule any, patterns [][]string) *model.Config {
	c := &model.Config{Defines: inv.Defines, Runners: inv.Runs, Guards: inv.Guards, LockCalls: inv.LockCalls}
	if a, ok := rule.(Acquirer); ok {
		c.Acquire = a.AcquireHelpers()
	}
	if pu, ok := rule.(PatternUser); ok {
		for i, u := range pu.PatternUses() {
			if u == model.UseLock && i < len(patterns) {
				c.Locks = append(c.Locks, patterns[i])
			}
		}
	}
	return c
}

// Acquirer is a rule with helpers that return a guard of its lock
// (requires' acquire): a local bound to their result is a guard.
type Acquirer interface {
	AcquireHelpers() []invariants.Name
}
