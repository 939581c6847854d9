package treesitter

import (
	"bytes"

	"github.com/guardlint/guardlint/invariants"
)

// Prefilter decides from a file's bytes alone whether it can define a
// target, so that files that cannot are never parsed. Parsing is most of
// the cost of a scan, and in a large tree few files mention every segment
// of a qualified name.
//
// A definition of ns::Class::method (C family) spells every segment in the
// file: the lookup builds paths only from namespaces, classes and
// qualified declarators written in the same file. A Rust definition of
// Type::method spells `fn method` and the impl's Type, for the same reason.
type Prefilter struct {
	words [][]byte // each must occur as a whole word
	fn    []byte   // Rust: must occur as `fn <name>`; nil for the C family
}

// NewPrefilter builds the filter for a scoped function name.
func NewPrefilter(lang invariants.Lang, scoped []string) Prefilter {
	var p Prefilter
	for i, s := range scoped {
		if s == "" {
			continue // a leading :: anchors the name; nothing to look for
		}
		if s[0] == '~' {
			s = s[1:]
		}
		if i == len(scoped)-1 && lang == invariants.LangRust {
			p.fn = []byte(s)
			continue
		}
		p.words = append(p.words, []byte(s))
	}
	return p
}

// Match reports whether src may define the target.
func (p Prefilter) Match(src []byte) bool {
	for _, w := range p.words {
		if !ContainsWord(src, w, false) {
			return false
		}
	}
	return p.fn == nil || ContainsWord(src, p.fn, true)
}

// ContainsWord reports whether word occurs in src between non-identifier
// bytes; with afterFn, it must also follow the keyword `fn` and white
// space.
func ContainsWord(src, word []byte, afterFn bool) bool {
	for off := 0; ; {
		i := bytes.Index(src[off:], word)
		if i < 0 {
			return false
		}
		at := off + i
		end := at + len(word)
		off = at + 1
		if (at > 0 && IsIdentByte(src[at-1])) || (end < len(src) && IsIdentByte(src[end])) {
			continue
		}
		if !afterFn || followsFn(src[:at]) {
			return true
		}
	}
}

// followsFn reports whether before ends in `fn` and at least one space.
func followsFn(before []byte) bool {
	trimmed := bytes.TrimRight(before, " \t\r\n")
	if len(trimmed) == len(before) || !bytes.HasSuffix(trimmed, []byte("fn")) {
		return false
	}
	rest := trimmed[:len(trimmed)-2]
	return len(rest) == 0 || !IsIdentByte(rest[len(rest)-1])
}

// IsIdentByte reports whether b can be part of an identifier (any byte of
// a multi-byte UTF-8 sequence counts).
func IsIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}
