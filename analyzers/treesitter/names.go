package treesitter

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Signature names a definition with its parameter types, as a target
// that selects it is written: synchronize(Stream), Registry::add(const
// Key&, int).
func Signature(fn *model.Func, params [][]string) string {
	var ps []string
	for _, p := range params {
		ps = append(ps, joinTokens(p))
	}
	return Qualified(fn) + "(" + strings.Join(ps, ", ") + ")"
}

// joinTokens writes tokens back as source: a space between two words,
// none around punctuation (`const Stream &` is `const Stream&`).
func joinTokens(toks []string) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && isWord(toks[i-1]) && isWord(t) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

// isWord reports whether a token starts with an identifier byte.
func isWord(t string) bool { return t != "" && IsIdentByte(t[0]) }

// Qualified names a function for messages: ns::Class::method.
func Qualified(fn *model.Func) string { return strings.Join(fn.Path, "::") }

// FieldName is the name a C family member declarator declares, through
// pointers, references and arrays; nil for a method.
func FieldName(d *syntax.Node) *syntax.Node {
	for d != nil {
		switch d.Kind {
		case "field_identifier", "identifier":
			return d
		case "function_declarator":
			return nil
		}
		next := d.Child("declarator")
		if next == nil {
			kids := d.NamedChildren()
			if len(kids) == 0 {
				return nil
			}
			next = kids[len(kids)-1]
		}
		d = next
	}
	return nil
}
