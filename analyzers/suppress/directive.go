package suppress

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// Prefix starts a suppression comment, in Go and in the tree-sitter
// languages alike.
const Prefix = "//guardlint:ignore"

// Directive is one suppression comment: `//guardlint:ignore <id> <reason>`.
type Directive struct {
	// At is the comment as its front end knows it (an *ast.Comment, a
	// syntax node's position), for reporting.
	At any
	// File and Line are where the comment is.
	File string
	Line int
	// ID and Reason are "" when missing.
	ID, Reason string
}

// Parse reads a comment's text (with its // and without a line end); ok
// is false when the comment is not a suppression.
func Parse(text string) (id, reason string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(text, "\r\n"), Prefix)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", "", false
	}
	fields := strings.Fields(rest)
	if len(fields) > 0 {
		id, reason = fields[0], strings.Join(fields[1:], " ")
	}
	return id, reason, true
}

// Set is the suppressions of a package or a run, with the ones that
// suppressed a finding. It is safe for concurrent use.
type Set struct {
	Directives []*Directive

	mu   sync.Mutex
	used map[*Directive]bool
	// byLine indexes Directives by file and line, so that a file of many
	// findings and many directives costs their sum, not their product;
	// built at the first Covers, rebuilt when Directives has grown.
	byLine  map[fileLine][]*Directive
	indexed int
}

// fileLine is where a directive is.
type fileLine struct {
	file string
	line int
}

// Add records a directive.
func (s *Set) Add(d *Directive) { s.Directives = append(s.Directives, d) }

// Covers reports whether a finding of invariant id at file:line is
// suppressed: a well-formed directive for id sits on that line or on the
// line above. The directive is marked used.
func (s *Set) Covers(file string, line int, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byLine == nil || s.indexed != len(s.Directives) {
		s.byLine = map[fileLine][]*Directive{}
		for _, d := range s.Directives {
			k := fileLine{filepath.Clean(d.File), d.Line}
			s.byLine[k] = append(s.byLine[k], d)
		}
		s.indexed = len(s.Directives)
	}
	file = filepath.Clean(file)
	for _, l := range []int{line - 1, line} { // in file order, as Directives are
		for _, d := range s.byLine[fileLine{file, l}] {
			if d.ID == id && d.Reason != "" {
				if s.used == nil {
					s.used = map[*Directive]bool{}
				}
				s.used[d] = true
				return true
			}
		}
	}
	return false
}

// Problem is a directive that is wrong in itself or suppresses nothing,
// with the message that says so.
type Problem struct {
	*Directive
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

// Problems lists the directives that are malformed, name no loaded
// invariant, or suppressed nothing, so that no suppression outlives what
// it excused. A directive for an invariant the run does not check
// (`enabled: false`, -only, -skip) suppressed nothing because nothing
// ran, and is not reported. Ask it after every finding of the
// directives' files has been through Covers.
func (s *Set) Problems(ids IDs) []Problem {
	var out []Problem
	for _, d := range s.Directives {
		var msg string
		switch {
		case d.ID == "":
			msg = "needs an invariant id and a reason: " + Prefix + " <id> <reason>"
		case d.Reason == "":
			msg = d.ID + " needs a reason after the id"
		case !ids.Knows(d.ID):
			msg = fmt.Sprintf("names %s, which is not a loaded invariant", d.ID)
		case !ids.Checks(d.ID):
			continue
		case !s.wasUsed(d):
			msg = d.ID + " suppresses nothing on this line or the next"
		default:
			continue
		}
		out = append(out, Problem{Directive: d, Message: "guardlint:ignore " + msg})
	}
	return out
}

func (s *Set) wasUsed(d *Directive) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used[d]
}
