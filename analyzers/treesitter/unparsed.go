package treesitter

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Unparsed says that a definition does not parse, by name and position,
// and where its first error (bad, an ERROR or MISSING node) is. When an
// all-caps identifier sits on the error or next to it, the message names
// `erase`: such a word is most often a macro whose expansion the grammar
// never sees (`GUARDED_BY(mu)`, `MLX_API`), and erasing it is the fix.
func Unparsed(f *syntax.File, def *model.Func, name string, bad *syntax.Node) string {
	what := "a syntax error"
	if bad.Kind != "ERROR" {
		what = "a missing " + bad.Kind
	}
	at, p := f.Position(def.Name.Start), f.Position(bad.Start)
	msg := fmt.Sprintf("%s at %s:%d:%d does not parse (%s at %s:%d:%d", name, at.Filename, at.Line, at.Column, what, p.Filename, p.Line, p.Column)
	if m := macroAt(f, def.Node, bad); m != "" {
		msg += fmt.Sprintf("; if %s is a macro the grammar cannot read, erase it: `erase: [%s]` on the invariant or at the top level", m, m)
	}
	return msg + ")"
}

// macroAt returns the all-caps identifier of the definition that sits on
// the bad node, or else the nearest one before it on its line or the line
// above, or else the first one after it on its line; "" when there is
// none. Recovery puts the error at a token the grammar could not place,
// which is often past the macro: `FOO_BAR(x) int k;` misses a `;` before
// `int`, and a `STEEL_PRAGMA_UNROLL` line before a `for` leaves the error
// inside the loop's header on the next line. An erased macro is blank and
// is never found again.
func macroAt(f *syntax.File, def, bad *syntax.Node) string {
	line := f.Position(bad.Start).Line
	var before, inside, after string
	syntax.Walk(def, func(n *syntax.Node) bool {
		if syntax.IsComment(n) || inside != "" {
			return false
		}
		if len(n.Children) > 0 {
			return true
		}
		word := f.Text(n)
		if l := f.Position(n.Start).Line; !allCaps(word) || l < line-1 || l > line {
			return true
		}
		switch {
		case n.End <= bad.Start && n.Start < bad.Start:
			before = word
		case n.Start >= bad.End && n.End > bad.End:
			if after == "" && f.Position(n.Start).Line == line {
				after = word
			}
		default:
			inside = word
		}
		return true
	})
	for _, w := range []string{inside, before, after} {
		if w != "" {
			return w
		}
	}
	return ""
}

// allCaps reports whether a token is an identifier of capitals, digits
// and underscores with at least two capitals: FOO_BAR, MLX_API, not X or
// a lowercase name.
func allCaps(word string) bool {
	letters := 0
	for i, c := range word {
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_', c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return letters >= 2 && !strings.HasPrefix(word, "0")
}
