package treesitter

import (
	"bytes"
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// suppressPrefix starts a suppression comment, as in Go files.
const suppressPrefix = "//guardlint:ignore"

// directive is one `//guardlint:ignore <id> <reason>` comment in a C, C++,
// CUDA or Rust file.
type directive struct {
	pos, end   token.Position
	id, reason string
	used       bool
}

// suppressions reads the directives of the given files (those of the
// globs whose bytes hold the prefix); they are parsed, so that a directive
// inside a string literal is not taken for one.
func suppressions(files map[string]invariants.Lang, budget time.Duration) ([]*directive, []error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []*directive
	var errs []error
	for _, p := range paths {
		src, err := syntax.ReadFile(p)
		if err != nil || !bytes.Contains(src, []byte(suppressPrefix)) {
			continue // an unreadable target file is reported by its invariant
		}
		f, err := syntax.ParseWithin(syntax.Lang(files[p]), p, src, budget)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		syntax.Walk(f.Root, func(n *syntax.Node) bool {
			if syntax.IsComment(n) {
				rest, ok := strings.CutPrefix(strings.TrimRight(f.Text(n), "\r\n"), suppressPrefix)
				if ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
					d := &directive{pos: f.Position(n.Start), end: f.Position(n.End)}
					if fields := strings.Fields(rest); len(fields) > 0 {
						d.id, d.reason = fields[0], strings.Join(fields[1:], " ")
					}
					out = append(out, d)
				}
				return false
			}
			return true
		})
	}
	return out, errs
}

// suppress drops the findings that a well-formed directive for their
// invariant covers (on the finding's line or the line above), then reports
// every directive that is malformed, names no loaded invariant, or
// suppresses nothing. Findings in invariants files are never suppressed.
func suppress(set *invariants.Set, findings []Finding, dirs []*directive) []Finding {
	known := map[string]bool{}
	for _, inv := range set.Invariants {
		known[inv.ID] = true
	}
	// Directives by file and line, so that a file with many findings and
	// many directives costs their sum, not their product.
	type at struct {
		file string
		line int
	}
	byLine := map[at][]*directive{}
	for _, d := range dirs {
		k := at{filepath.Clean(d.pos.Filename), d.pos.Line}
		byLine[k] = append(byLine[k], d)
	}
	var out []Finding
	for _, f := range findings {
		covered := false
		file := filepath.Clean(f.Pos.Filename)
		for _, line := range []int{f.Pos.Line, f.Pos.Line - 1} {
			for _, d := range byLine[at{file, line}] {
				if d.id == f.ID && d.reason != "" {
					d.used, covered = true, true
				}
			}
		}
		if !covered {
			out = append(out, f)
		}
	}
	for _, d := range dirs {
		var msg string
		switch {
		case d.id == "":
			msg = "needs an invariant id and a reason: //guardlint:ignore <id> <reason>"
		case d.reason == "":
			msg = d.id + " needs a reason after the id"
		case !known[d.id]:
			msg = fmt.Sprintf("names %s, which is not a loaded invariant", d.id)
		case !d.used:
			msg = d.id + " suppresses nothing on this line or the next"
		default:
			continue
		}
		out = append(out, Finding{Pos: d.pos, End: d.end, ID: "suppression", Message: "guardlint:ignore " + msg})
	}
	return out
}
