package treesitter

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Source is the code an invariant of lang c, cpp, cuda or rust speaks
// about, parsed once: every file its globs match, with the function
// definitions each holds under the invariant's defines. It is what
// guardlint prove mutates: the sites its generators touch are the facts
// these definitions report, the very facts the rules judge, so that the
// prover never re-derives a site the front end would see differently.
type Source struct {
	Inv   *invariants.Invariant
	Files []*SourceFile
	lang  model.Language
	conf  *model.Config
	// patterns are the tokens of the rule's patterns, as Check gives them.
	patterns [][]string
}

// SourceFile is one file of a Source.
type SourceFile struct {
	*syntax.File
	// Funcs are the file's function definitions that are live under the
	// defines, in the order the front end lists them, each with the facts
	// of its language.
	Funcs []*Function
}

// LoadSource reads and parses the files of an invariant through view
// (nil: the disk). What the check would report as unverifiable (a glob
// that matches nothing, a pattern that does not parse, a file that cannot
// be read) is an error here.
func LoadSource(inv *invariants.Invariant, view *overlay.Files) (*Source, error) {
	lang, ok := languages[inv.Lang]
	if !ok {
		return nil, fmt.Errorf("lang %s is not checked by the tree-sitter front end", inv.Lang)
	}
	s := &Source{Inv: inv, lang: lang, conf: &model.Config{Defines: inv.Defines}}
	if fr, ok := inv.Rule.(FunctionRule); ok {
		for _, n := range fr.Patterns() {
			toks, perr := rulePattern(inv, lang, n)
			if perr != nil {
				return nil, fmt.Errorf("%s: %w", perr.pos, perr.err)
			}
			s.patterns = append(s.patterns, toks)
		}
	}
	files, errs := expandAll(inv, map[string][]string{}, view)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", errs[0].Message)
	}
	seen := map[string]bool{}
	for _, p := range files {
		if seen[p] {
			continue
		}
		seen[p] = true
		src, err := view.ReadFile(p)
		if err != nil {
			return nil, err
		}
		sf, err := s.Parse(p, src)
		if err != nil {
			return nil, err
		}
		s.Files = append(s.Files, sf)
	}
	return s, nil
}

// Parse parses src, the content of path, as the source's language and
// lists its definitions: a mutated file is read this way to find the
// mutated function again.
func (s *Source) Parse(path string, src []byte) (*SourceFile, error) {
	f, err := syntax.Parse(syntax.Lang(s.Inv.Lang), path, src)
	if err != nil {
		return nil, err
	}
	sf := &SourceFile{File: f}
	for _, def := range s.lang.Functions(f, s.conf) {
		sf.Funcs = append(sf.Funcs, &Function{Inv: s.Inv, File: f, Func: def, Patterns: s.patterns, lang: s.lang, conf: s.conf})
	}
	return sf, nil
}

// Targets returns the definitions of the invariant's functions (not of
// its helpers), file by file in source order.
func (s *Source) Targets() []*Function {
	var out []*Function
	for _, f := range s.Files {
		for _, fn := range f.Funcs {
			for _, n := range s.Inv.Functions {
				if fn.Func.Matches(n.Scoped) {
					out = append(out, fn)
					break
				}
			}
		}
	}
	return out
}

// Matches reports whether the definition is the function a name names.
func (fn *Function) Matches(n invariants.Name) bool { return fn.Func.Matches(n.Scoped) }

// Writes lists the writes of a field of typ in the function, as the owns
// rule sees them.
func (fn *Function) Writes(typ, field string) []model.Write {
	return fn.lang.Writes(fn.File, fn.Func, typ, field, fn.conf)
}
