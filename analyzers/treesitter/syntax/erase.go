package syntax

import "strings"

// Erasing macros: real C and C++ headers put object-like macros where
// the grammar wants declaration specifiers (`_GLIBCXX20_CONSTEXPR void
// push_back(...)`) and statements (`STEEL_PRAGMA_UNROLL for (...)`). An
// invariant names those it erases, and every use is blanked before
// parsing, in place, so that offsets, lines and the tokens of the rest
// stay exact.

// EraseMacros returns src with every use of the named macros, and the
// parenthesised arguments that follow one directly, overwritten with
// spaces outside comments and literals: declaration specifiers such as
// `_GLIBCXX20_CONSTEXPR` and statement prefixes such as
// `STEEL_PRAGMA_UNROLL`, which the grammar cannot read without their
// expansion, are gone, and every other byte keeps its offset. A line
// that defines one of the macros (`#define X ...`) keeps its name.
func EraseMacros(src []byte, macros []string) []byte {
	if len(macros) == 0 {
		return src
	}
	names := map[string]bool{}
	for _, m := range macros {
		names[m] = true
	}
	out := make([]byte, len(src))
	copy(out, src)
	n := len(src)
	lineStart := 0
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = i + 1
			i++
		case skipsTrivia(src, i):
			i = skipTrivia(src, i)
		case isIdentPart(c) && (i == 0 || !isIdentPart(src[i-1])):
			j := i
			for j < n && isIdentPart(src[j]) {
				j++
			}
			if names[string(src[i:j])] && !isDirective(src[lineStart:i]) {
				end := j
				if k := skipSpaces(src, j); k < n && src[k] == '(' {
					if close := closingParen(src, k, false); close > 0 {
						end = close
					}
				}
				for k := i; k < end; k++ {
					if out[k] != '\n' {
						out[k] = ' '
					}
				}
				j = end
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// isDirective reports whether the text before a word on its line starts
// a preprocessor directive: the macro's own #define, #ifdef, #undef.
func isDirective(before []byte) bool {
	return strings.HasPrefix(strings.TrimLeft(string(before), " \t"), "#")
}

// skipSpaces returns the offset of the first byte at or after i that is
// not a space or a tab.
func skipSpaces(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// closingParen returns the offset after the parenthesis that closes the
// one at i, or -1; with inLine, -1 too when the line ends first.
func closingParen(src []byte, i int, inLine bool) int {
	depth := 0
	for i < len(src) {
		switch src[i] {
		case '"', '\'':
			i = skipQuoted(src, i)
			continue
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\n':
			if inLine {
				return -1
			}
		}
		i++
	}
	return -1
}
