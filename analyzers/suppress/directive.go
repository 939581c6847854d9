package suppress

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Prefix starts a suppression comment, in Go and in the tree-sitter
// languages alike.
const Prefix = "//guardlint:ignore"

// Form is what a directive covers.
type Form int

// The forms of a suppression. Every form starts with Prefix, so a file
// without Prefix in its bytes holds none and need not be parsed.
const (
	// FormLine, `//guardlint:ignore <id> <reason>`: its own line and the
	// next.
	FormLine Form = iota
	// FormFile, `//guardlint:ignore-file <id> <reason>`, anywhere in a
	// file: the whole file.
	FormFile
	// FormBegin, `//guardlint:ignore-begin <id> <reason>`: the lines up
	// to the matching FormEnd, `//guardlint:ignore-end <id>`, which
	// takes no reason.
	FormBegin
	// FormEnd closes the nearest open FormBegin of the same id above it.
	FormEnd
)

// suffixes are the forms' spellings after Prefix.
var suffixes = map[string]Form{"": FormLine, "-file": FormFile, "-begin": FormBegin, "-end": FormEnd}

// String is the form's spelling, for messages.
func (f Form) String() string {
	for s, g := range suffixes {
		if g == f {
			return "guardlint:ignore" + s
		}
	}
	return "guardlint:ignore"
}

// Directive is one suppression comment: `//guardlint:ignore <id> <reason>`
// or one of the other forms. A is how its front end knows the comment
// (the Go front end's *ast.Comment, the tree-sitter front end's span), so
// that each reports its problems where they are without a type assertion.
type Directive[A any] struct {
	// At is the comment as its front end knows it, for reporting.
	At A
	// File and Line are where the comment is.
	File string
	Line int
	// Form is what the directive covers.
	Form Form
	// ID and Reason are "" when missing.
	ID, Reason string

	// endLine is the line of a FormBegin's matching FormEnd, and the
	// FormEnd's own line for a matched FormEnd; 0 when unmatched.
	endLine int
}

// Parse reads a comment's text (with its // and without a line end); ok
// is false when the comment is not a suppression.
func Parse(text string) (id, reason string, ok bool) {
	form, id, reason, ok := ParseForm(text)
	if !ok || form != FormLine {
		return "", "", false
	}
	return id, reason, true
}

// ParseForm reads a comment's text as any form of suppression; ok is
// false when the comment is none.
func ParseForm(text string) (form Form, id, reason string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(text, "\r\n"), Prefix)
	if !ok {
		return 0, "", "", false
	}
	suffix := rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		suffix = rest[:i]
	}
	form, ok = suffixes[suffix]
	if !ok {
		return 0, "", "", false
	}
	fields := strings.Fields(rest[len(suffix):])
	if len(fields) > 0 {
		id, reason = fields[0], strings.Join(fields[1:], " ")
	}
	return form, id, reason, true
}

// Set is the suppressions of a package or a run, with the ones that
// suppressed a finding. It is safe for concurrent use.
type Set[A any] struct {
	Directives []*Directive[A]

	mu   sync.Mutex
	used map[*Directive[A]]bool
	// byLine indexes the line directives by file and line, so that a
	// file of many findings and many directives costs their sum, not
	// their product; byFile, the file and matched block directives by
	// file. Built at the first Covers, rebuilt when Directives has grown.
	byLine  map[fileLine][]*Directive[A]
	byFile  map[string][]*Directive[A]
	indexed int
}

// fileLine is where a directive is.
type fileLine struct {
	file string
	line int
}

// Add records a directive.
func (s *Set[A]) Add(d *Directive[A]) { s.Directives = append(s.Directives, d) }

// Covers reports whether a finding of invariant id at file:line is
// suppressed: a well-formed directive for id sits on that line or on the
// line above. The directive is marked used.
//
// A file directive covers every line of its file, a block directive the
// lines from its ignore-begin to its ignore-end; both must give a reason,
// and a block without its end covers nothing (it is reported instead).
func (s *Set[A]) Covers(file string, line int, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byLine == nil || s.indexed != len(s.Directives) {
		s.index()
	}
	file = filepath.Clean(file)
	use := func(d *Directive[A]) bool {
		if s.used == nil {
			s.used = map[*Directive[A]]bool{}
		}
		s.used[d] = true
		return true
	}
	for _, l := range []int{line - 1, line} { // in file order, as Directives are
		for _, d := range s.byLine[fileLine{file, l}] {
			if d.ID == id && d.Reason != "" {
				return use(d)
			}
		}
	}
	for _, d := range s.byFile[file] {
		if d.ID != id || d.Reason == "" {
			continue
		}
		if d.Form == FormFile || (d.Line <= line && line <= d.endLine) {
			return use(d)
		}
	}
	return false
}

// index builds byLine and byFile, matching each ignore-end with the
// nearest open ignore-begin of its id above it in its file. Called with
// mu held.
func (s *Set[A]) index() {
	s.byLine = map[fileLine][]*Directive[A]{}
	s.byFile = map[string][]*Directive[A]{}
	sorted := slices.Clone(s.Directives)
	slices.SortStableFunc(sorted, func(a, b *Directive[A]) int {
		return cmp.Or(cmp.Compare(filepath.Clean(a.File), filepath.Clean(b.File)), cmp.Compare(a.Line, b.Line))
	})
	open := map[fileID][]*Directive[A]{}
	for _, d := range sorted {
		file := filepath.Clean(d.File)
		switch d.Form {
		case FormLine:
			k := fileLine{file, d.Line}
			s.byLine[k] = append(s.byLine[k], d)
		case FormFile:
			s.byFile[file] = append(s.byFile[file], d)
		case FormBegin:
			d.endLine = 0
			k := fileID{file, d.ID}
			open[k] = append(open[k], d)
		case FormEnd:
			d.endLine = 0
			k := fileID{file, d.ID}
			if n := len(open[k]); n > 0 && d.ID != "" {
				begin := open[k][n-1]
				open[k] = open[k][:n-1]
				begin.endLine, d.endLine = d.Line, d.Line
				s.byFile[file] = append(s.byFile[file], begin)
			}
		}
	}
	s.indexed = len(s.Directives)
}

// fileID is an id's directives in one file.
type fileID struct{ file, id string }

// Problem is a directive that is wrong in itself or suppresses nothing,
// with the message that says so.
type Problem[A any] struct {
	*Directive[A]
	Message string
}

// IDs says which invariant ids exist and which a run checks
// (*invariants.Set implements it).
type IDs interface {
	// Knows reports whether id names a loaded invariant, checked or not.
	Knows(id string) bool
	// Checks reports whether the run checks the invariant id.
	Checks(id string) bool
}

// idSuggester is an IDs that can say which loaded id a misspelt one is
// closest to (*invariants.Set).
type idSuggester interface {
	SuggestID(id string) string
}

// Problems lists the directives that are malformed, name no loaded
// invariant, or suppressed nothing, so that no suppression outlives what
// it excused. A directive for an invariant the run does not check
// (`enabled: false`, -only, -skip) suppressed nothing because nothing
// ran, and is not reported. Ask it after every finding of the
// directives' files has been through Covers.
func (s *Set[A]) Problems(ids IDs) []Problem[A] {
	s.mu.Lock()
	if s.byLine == nil || s.indexed != len(s.Directives) {
		s.index()
	}
	s.mu.Unlock()
	var out []Problem[A]
	for _, d := range s.Directives {
		var msg string
		switch {
		case d.ID == "" && d.Form == FormEnd:
			msg = "needs the invariant id of its " + FormBegin.String()
		case d.ID == "":
			msg = "needs an invariant id and a reason: //" + d.Form.String() + " <id> <reason>"
		case d.Form == FormEnd && d.endLine == 0:
			msg = fmt.Sprintf("%s closes no //%s %s above it", d.ID, FormBegin, d.ID)
		case d.Form == FormEnd:
			continue // a matched end: its begin answers for the block
		case d.Reason == "":
			msg = d.ID + " needs a reason after the id"
		case !ids.Knows(d.ID):
			msg = fmt.Sprintf("names %s, which is not a loaded invariant", d.ID)
			if sg, ok := ids.(idSuggester); ok {
				msg += sg.SuggestID(d.ID)
			}
		case d.Form == FormBegin && d.endLine == 0:
			msg = fmt.Sprintf("%s has no //%s %s below it, so it suppresses nothing", d.ID, FormEnd, d.ID)
		case !ids.Checks(d.ID):
			continue
		case !s.wasUsed(d):
			msg = d.ID + " suppresses nothing " + map[Form]string{FormLine: "on this line or the next", FormFile: "in this file", FormBegin: "in its block"}[d.Form]
		default:
			continue
		}
		out = append(out, Problem[A]{Directive: d, Message: d.Form.String() + " " + msg})
	}
	return out
}

func (s *Set[A]) wasUsed(d *Directive[A]) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used[d]
}
