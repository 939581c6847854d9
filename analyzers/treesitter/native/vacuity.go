package native

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Vacuous words why an invariant is vacuous when the code it speaks about
// (what: a forbidden call, a lock, a field) matches nothing that runs or
// might run in its files: where it appears instead (dead code, with the
// front end's reason, given as dead; comments; string literals), or that
// it matches nothing at all. word is what to look for in comments and
// strings: the pattern's last name.
func (c *Code) Vacuous(what, word, dead string) []string {
	var where []string
	if dead != "" {
		where = append(where, "dead code ("+dead+")")
	}
	inComment, inString := c.textOnly(word)
	if inComment {
		where = append(where, "comments")
	}
	if inString {
		where = append(where, "string literals")
	}
	if len(where) > 0 {
		return []string{fmt.Sprintf("%s appears only in %s of %s", what, strings.Join(where, ", "), c.Globs())}
	}
	return []string{fmt.Sprintf("%s matches nothing: no code of %s uses it", what, c.Globs())}
}

// textOnly says whether word appears in a comment or a string literal of
// the files.
func (c *Code) textOnly(word string) (inComment, inString bool) {
	if word == "" {
		return false, false
	}
	files, _ := c.Src.Mentioning(word)
	for _, f := range files {
		syntax.Walk(f.Root, func(n *syntax.Node) bool {
			switch {
			case syntax.IsComment(n):
				inComment = inComment || strings.Contains(f.Text(n), word)
				return false
			case isString(n):
				inString = inString || strings.Contains(f.Text(n), word)
				return false
			}
			return true
		})
	}
	return inComment, inString
}

// isString reports whether n is a string or character literal in one of
// the grammars.
func isString(n *syntax.Node) bool {
	switch n.Kind {
	case "string_literal", "raw_string_literal", "char_literal", "concatenated_string":
		return true
	}
	return false
}

// Globs lists the invariant's globs for messages.
func (c *Code) Globs() string {
	var s []string
	for _, g := range c.Inv.Files {
		s = append(s, g.Pattern)
	}
	return strings.Join(s, ", ")
}

// LastName is the last name a pattern spells, what Vacuous looks for in
// comments and strings: `release` in `enc->release`, `msg_send` in
// `msg_send![encoder, retain]`.
func LastName(pattern string) string {
	name := ""
	cur := strings.Builder{}
	flush := func() {
		if cur.Len() > 0 {
			name = cur.String()
			cur.Reset()
		}
	}
	for _, r := range pattern {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			cur.WriteRune(r)
			continue
		}
		if r == '!' || r == '(' || r == '[' || r == '{' {
			flush()
			if name != "" {
				return name
			}
			continue
		}
		flush()
	}
	flush()
	return name
}
