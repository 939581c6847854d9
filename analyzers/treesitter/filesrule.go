package treesitter

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// FilesRule is the tree-sitter facet of a rule kind checked over every
// function of the invariant's files at once, because what one function
// must do depends on the functions that call it (requires follows the
// callers of a function that needs a lock).
type FilesRule interface {
	core.Rule
	// Patterns are the token patterns the rule matches, as for a
	// FunctionRule; each Function carries their tokens.
	Patterns() []invariants.Name
	// CheckFiles checks the functions of the files, reporting through
	// each, and returns why the invariant cannot be verified there (a
	// pattern nothing matches), or "".
	CheckFiles(fns []*Function) string
}

// FilesLookup is a FilesRule that says which of its names must be
// defined in the files, and which words a file must hold to matter.
type FilesLookup interface {
	// Lookups are the functions that must each be defined in the files,
	// once (or with `all: true`), like a FunctionRule's targets.
	Lookups(inv *invariants.Invariant) []invariants.Name
	// Mentions are words a file holds when it can matter to the rule: a
	// file with none of them is not parsed.
	Mentions(inv *invariants.Invariant) []string
	// OnlyLookups says that the rule checks the lookups' bodies and
	// nothing else (requires' within): another function that does not
	// parse does not matter.
	OnlyLookups(inv *invariants.Invariant) bool
}

// filesJob is an invariant checked over all the functions of its files.
type filesJob struct {
	inv      *invariants.Invariant
	rule     FilesRule
	files    []string
	view     *overlay.Files // nil: the disk
	patterns [][]string
	shapes   []model.Shape
}

// checkFiles checks an invariant of a FilesRule kind: every function of
// every file of the globs that mentions one of the rule's words is handed
// to the rule at once. A function that does not parse and mentions one of
// the words cannot be verified, nor can a lookup defined nowhere, or
// defined more than once without `all: true`.
func checkFiles(j filesJob, marks *marked) []core.Finding {
	inv := j.inv
	lang := languages[inv.Lang]
	conf := configOf(inv, j.rule, j.patterns)
	var lookups []invariants.Name
	var words [][]byte
	only := false
	if fl, ok := j.rule.(FilesLookup); ok {
		lookups, only = fl.Lookups(inv), fl.OnlyLookups(inv)
		for _, w := range fl.Mentions(inv) {
			words = append(words, []byte(w))
		}
	}
	found := make([][]string, len(lookups))
	var out []core.Finding
	var fns []*Function
	for _, p := range j.files {
		src, err := j.view.ReadFile(p)
		marks.note(p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "cannot read %s: %v", p, err))
			continue
		}
		if len(words) > 0 && !mentionsAny(src, words) {
			continue
		}
		f, err := parse(inv, p, src)
		if err != nil {
			out = append(out, unverifiable(inv, inv.Pos, "%v", err))
			continue
		}
		for _, def := range lang.Functions(f, conf) {
			fn := &Function{Inv: inv, File: f, Func: def, Patterns: j.patterns, Shapes: j.shapes, lang: lang, conf: conf}
			lookup := false
			for i, n := range lookups {
				if fn.Is(n) {
					found[i] = append(found[i], fmt.Sprintf("%s at %s:%d", signature(def, lang.Params(f, def)), p, f.Position(def.Name.Start).Line))
					lookup = true
				}
			}
			if only && !lookup {
				continue
			}
			if bad := syntax.FirstBad(def.Node); bad != nil {
				if len(words) == 0 || mentionsAny(f.Src[def.Node.Start:def.Node.End], words) {
					pos := f.Position(bad.Start)
					out = append(out, unverifiable(inv, inv.Pos, "%s does not parse: a syntax error at %s:%d:%d", qualified(def), pos.Filename, pos.Line, pos.Column))
				}
				continue
			}
			fns = append(fns, fn)
		}
	}
	for i, at := range found {
		n := lookups[i]
		switch {
		case len(at) == 0:
			out = append(out, unverifiable(inv, n.Pos, "function %s not found in %s", n.Raw, globList(inv)))
		case len(at) > 1 && !inv.All:
			out = append(out, unverifiable(inv, n.Pos, "function %s is defined %d times (%s); name it more precisely, by its scope or its parameters, or set `all: true`", n.Raw, len(at), strings.Join(at, ", ")))
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
