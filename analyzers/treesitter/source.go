package treesitter

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Source is the code an invariant of lang c, cpp, cuda or rust speaks
// about: the files its globs match, each parsed when first asked for, with
// the function definitions it holds under the invariant's defines. It is
// what guardlint prove mutates: the sites its generators touch are the
// facts these definitions report, the very facts the rules judge, so that
// the prover never re-derives a site the front end would see differently.
//
// Files are parsed only when they can hold what is asked for, as the
// check (analyzers/nativecheck) skips them (Prefilter): the definitions
// of the targets, or code that mentions a name. A glob over a large vendored tree then costs a read of
// each file, not a parse.
type Source struct {
	Inv  *invariants.Invariant
	lang model.Language
	conf *model.Config
	view *overlay.Files
	// paths are the files of the globs, in glob order, each once.
	paths []string
	// parsed caches the files parsed so far, by path.
	parsed map[string]*SourceFile
	// patterns are the tokens of the rule's patterns, as the check gives them,
	// and shapes what each is.
	patterns [][]string
	shapes   []model.Shape
	// shared, for a FilesRule, are the files loaded so far, whose type
	// facts and lock contracts their functions share, as the check's
	// functions share those of the job (ParsedFiles): a helper annotated
	// in a header is known as the check knows it. A function rule's
	// functions read their own file, as its check does.
	shared *ParsedFiles
}

// SourceFile is one parsed file of a Source.
type SourceFile struct {
	*syntax.File
	// Orig is the file's content as read: File.Src has the invariant's
	// erased macros blanked (syntax.EraseMacros, which keeps every
	// offset), so a mutant edits Orig at File's offsets.
	Orig []byte
	// Funcs are the file's function definitions that are live under the
	// defines, in the order the front end lists them, each with the facts
	// of its language.
	Funcs []*Function
}

// LoadSource finds the files of an invariant through view (nil: the
// disk). What the check would report as unverifiable (a glob that matches
// nothing, a pattern that does not parse) is an error here; so is a file
// that cannot be read or parsed when it is needed.
func LoadSource(inv *invariants.Invariant, view *overlay.Files) (*Source, error) {
	lang, ok := languages[inv.Lang]
	if !ok {
		return nil, fmt.Errorf("lang %s is not checked by the tree-sitter front end", inv.Lang)
	}
	s := &Source{Inv: inv, lang: lang, view: view, parsed: map[string]*SourceFile{}}
	if _, ok := inv.Rule.(FilesRule); ok {
		s.shared = NewParsedFiles()
	}
	// The patterns, their shapes, the files and the configuration, as
	// the check prepares them.
	var names []invariants.Name
	if pr, ok := inv.Rule.(interface{ Patterns() []invariants.Name }); ok {
		names = pr.Patterns()
	}
	patterns, shapes, files, errs := Prepare(inv, lang, inv.Rule, names, map[string][]string{}, view, map[string]invariants.Lang{})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", errs[0].Message)
	}
	s.patterns, s.shapes = patterns, shapes
	s.conf = ConfigOf(inv, inv.Rule, s.patterns)
	seen := map[string]bool{}
	for _, p := range files {
		if !seen[p] {
			seen[p] = true
			s.paths = append(s.paths, p)
		}
	}
	return s, nil
}

// Parse parses src, the content of path, as the source's language and
// lists its definitions: a mutated file is read this way to find the
// mutated function again.
func (s *Source) Parse(path string, src []byte) (*SourceFile, error) {
	f, err := Parse(s.Inv, path, src, 0)
	if err != nil {
		return nil, err
	}
	sf := &SourceFile{File: f, Orig: src}
	for _, def := range s.lang.Functions(f, s.conf) {
		sf.Funcs = append(sf.Funcs, &Function{Inv: s.Inv, File: f, Func: def, Patterns: s.patterns, Shapes: s.shapes, lang: s.lang, conf: s.conf})
	}
	return sf, nil
}

// files returns the parsed files whose bytes pass keep, in glob order.
func (s *Source) files(keep func(src []byte) bool) ([]*SourceFile, error) {
	var out []*SourceFile
	for _, p := range s.paths {
		if sf := s.parsed[p]; sf != nil {
			if keep(sf.Src) {
				out = append(out, sf)
			}
			continue
		}
		src, err := s.view.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if !keep(src) {
			continue
		}
		sf, err := s.Parse(p, src)
		if err != nil {
			return nil, err
		}
		if s.shared != nil {
			s.shared.Add(sf.File, src)
			for _, fn := range sf.Funcs {
				s.shared.Share(fn)
			}
		}
		s.parsed[p] = sf
		out = append(out, sf)
	}
	return out, nil
}

// Targets returns the definitions of the invariant's functions (not of
// its helpers), file by file in source order.
func (s *Source) Targets() ([]*Function, error) {
	filters := make([]Prefilter, len(s.Inv.Functions))
	for i, n := range s.Inv.Functions {
		filters[i] = NewPrefilter(s.Inv.Lang, n.Scoped)
	}
	files, err := s.files(func(src []byte) bool {
		for _, f := range filters {
			if f.Match(src) {
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	var out []*Function
	for _, f := range files {
		for _, fn := range f.Funcs {
			for _, n := range s.Inv.Functions {
				if fn.Is(n) { // by the parameter list too, when the name gives one
					out = append(out, fn)
					break
				}
			}
		}
	}
	return out, nil
}

// Mentioning returns the parsed files that mention one of the words as a
// whole word: the code that can call a pattern whose last name is the
// word, or write a field of that name.
func (s *Source) Mentioning(words ...string) ([]*SourceFile, error) {
	return s.files(func(src []byte) bool {
		for _, w := range words {
			if ContainsWord(src, []byte(w), false) {
				return true
			}
		}
		return false
	})
}

// All returns every definition of every file of the globs, file by file
// in source order: what a FilesRule is checked over.
func (s *Source) All() ([]*Function, error) {
	files, err := s.files(func([]byte) bool { return true })
	var out []*Function
	for _, f := range files {
		out = append(out, f.Funcs...)
	}
	return out, err
}

// Original returns the content as read of a file this source parsed
// (see SourceFile.Orig), or f's own source.
func (s *Source) Original(f *syntax.File) []byte {
	if sf := s.parsed[f.Path]; sf != nil && sf.File == f {
		return sf.Orig
	}
	return f.Src
}

// FileOf returns the parsed file a definition of this source is in.
func (s *Source) FileOf(fn *Function) *SourceFile { return s.parsed[fn.File.Path] }

// Matches reports whether the definition is the function a name names.
func (fn *Function) Matches(n invariants.Name) bool { return fn.Func.Matches(n.Scoped) }

// Writes lists the writes of a field of typ in the function, as the owns
// rule sees them.
func (fn *Function) Writes(typ, field string) []model.Write {
	return fn.lang.Writes(fn.File, fn.Func, typ, field, fn.conf)
}
