package nativecheck

import (
	"bytes"
	"go/token"
	"sort"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/suppress"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// suppressions reads the directives of the given files (those of the
// globs whose bytes hold the prefix); they are parsed, so that a directive
// inside a string literal is not taken for one.
func suppressions(files map[string]invariants.Lang, view *overlay.Files, budget time.Duration) (*suppress.Set[span], []error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	set := &suppress.Set[span]{}
	var errs []error
	for _, p := range paths {
		src, err := treesitter.ReadSource(view, p)
		if err != nil || !bytes.Contains(src, []byte(suppress.Prefix)) {
			continue // an unreadable target file is reported by its invariant
		}
		f, err := syntax.ParseWithin(syntax.Lang(files[p]), p, src, budget)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		syntax.Walk(f.Root, func(n *syntax.Node) bool {
			if !syntax.IsComment(n) {
				return true
			}
			if form, id, reason, ok := suppress.ParseForm(f.Text(n)); ok {
				at := span{f.Position(n.Start), f.Position(n.End)}
				set.Add(&suppress.Directive[span]{At: at, File: at.pos.Filename, Line: at.pos.Line, Form: form, ID: id, Reason: reason})
			}
			return false
		})
	}
	return set, errs
}

// span is where a directive is.
type span struct{ pos, end token.Position }

// suppress drops the findings that a directive covers, then reports
// every directive that is malformed, names no loaded invariant, or
// suppresses nothing (see package suppress). Findings in invariants files
// are never suppressed: no directive is read from them.
func applySuppressions(set *invariants.Set, findings []core.Finding, dirs *suppress.Set[span]) []core.Finding {
	var out []core.Finding
	for _, f := range findings {
		if !dirs.Covers(f.Pos.Filename, f.Pos.Line, f.ID) {
			out = append(out, f)
		}
	}
	for _, p := range dirs.Problems(set) {
		at := p.At
		out = append(out, core.Finding{Pos: at.pos, End: at.end, ID: core.SuppressionID, Message: p.Message})
	}
	return out
}
