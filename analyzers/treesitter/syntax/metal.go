package syntax

// The Metal Shading Language is C++14 with words C++ lacks: address-space
// qualifiers on types (`device float*`, `constant uint&`, `threadgroup
// T buf[32]`), function qualifiers (`kernel void f(...)`), and the macros
// its standard headers define for declarations (`METAL_FUNC`, which
// stands for `inline __attribute__((always_inline))`). Its `[[...]]`
// attributes are C++11 attributes, which the C++ grammar reads.
//
// A metal file is parsed by the C++ grammar after those words, every
// `_Pragma("...")` operator (which the kernels write before loops), and
// the memory coherence qualifier `coherent(system)`, are overwritten with
// spaces. Nothing moves: every byte keeps its offset, so positions and
// the tokens read from the original source stay exact; the blanked words
// only have no leaves of their own.

// dialects are the languages read by another's grammar once their own
// words are blanked (parseInput).
var dialects = map[Lang]Lang{"metal": "cpp"}

// parseInput is the text the grammar reads for a file: the source itself,
// or for metal the source with the MSL words blanked.
func parseInput(lang Lang, src []byte) []byte {
	if lang == "metal" {
		return blankMetal(src)
	}
	return src
}

// metalWords are the MSL words that are blanked before parsing: what C++
// would read as a type name or an identifier before the real one.
var metalWords = map[string]bool{
	// Address spaces.
	"device": true, "constant": true, "threadgroup": true, "thread": true,
	"threadgroup_imageblock": true, "ray_data": true, "object_data": true,
	// Function qualifiers (the attribute forms, `[[kernel]]`, are left
	// as they are).
	"kernel": true, "vertex": true, "fragment": true,
	// The standard headers' declaration macro.
	"METAL_FUNC": true,
}

// blankMetal returns a copy of src with the MSL words and `_Pragma(...)`
// operators outside comments, string and character literals and
// attributes replaced by spaces. Lines and offsets are unchanged.
func blankMetal(src []byte) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	n := len(src)
	attr := 0 // depth of `[[` ... `]]`
	for i := 0; i < n; {
		c := src[i]
		switch {
		case skipsTrivia(src, i):
			i = skipTrivia(src, i)
		case c == '[' && i+1 < n && src[i+1] == '[':
			attr++
			i += 2
		case c == ']' && i+1 < n && src[i+1] == ']' && attr > 0:
			attr--
			i += 2
		case isIdentStart(c):
			j := i
			for j < n && isIdentPart(src[j]) {
				j++
			}
			word := string(src[i:j])
			switch {
			case attr > 0:
			case metalWords[word] && !memberAccess(src, i):
				blank(out, i, j)
			case word == "_Pragma" || word == "coherent":
				// `_Pragma("...")`, and the memory coherence qualifier
				// `coherent(device)`, with their operands.
				if end := pragmaEnd(src, j); end > 0 {
					blank(out, i, end)
					j = end
				}
			}
			i = j
		case c >= '0' && c <= '9':
			for i < n && (isIdentPart(src[i]) || src[i] == '\'' || src[i] == '.') {
				i++ // a number with a suffix or separators (1u, 0x1Fu, 1'000) is one word
			}
		default:
			i++
		}
	}
	return out
}

// memberAccess reports whether the word at i follows `.`, `->` or `::`:
// `metal::thread` or `x.object` name members, not qualifiers.
func memberAccess(src []byte, i int) bool {
	j := i - 1
	for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	return j >= 0 && (src[j] == '.' || (src[j] == '>' && j > 0 && src[j-1] == '-') || (src[j] == ':' && j > 0 && src[j-1] == ':'))
}

// pragmaEnd returns the offset after the parenthesised operand of a
// _Pragma that starts at or after i, or -1.
func pragmaEnd(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '(' {
		return -1
	}
	return closingParen(src, i, true)
}

// skipQuoted returns the offset after the string or character literal
// that starts at i; an unterminated one ends at the line's end.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	i++
	for i < len(src) && src[i] != q && src[i] != '\n' {
		if src[i] == '\\' {
			i++
		}
		i++
	}
	return i + 1
}

// skipsTrivia reports whether a comment or a quoted literal starts at
// src[i]: the text the source scanners of this package (the Metal
// blanking, the macro erasing) step over whole, since a word inside it is
// no token.
func skipsTrivia(src []byte, i int) bool {
	c := src[i]
	return c == '"' || c == '\'' || c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*')
}

// skipTrivia returns the index after the comment or quoted literal that
// starts at src[i] (skipsTrivia). A line comment ends before its newline,
// which the scanners count; an unterminated one ends at the end of src.
func skipTrivia(src []byte, i int) int {
	n := len(src)
	switch {
	case src[i] == '"' || src[i] == '\'':
		return skipQuoted(src, i)
	case src[i+1] == '/':
		for i < n && src[i] != '\n' {
			i++
		}
		return i
	default:
		i += 2
		for i+1 < n && (src[i] != '*' || src[i+1] != '/') {
			i++
		}
		return i + 2
	}
}

// blank overwrites src[i:j] with spaces.
func blank(b []byte, i, j int) {
	for k := i; k < j && k < len(b); k++ {
		b[k] = ' '
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }
