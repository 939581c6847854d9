package invariants

import (
	"fmt"
	"strings"
)

// parseScoped parses a function name of the tree-sitter languages:
// `fn`, `Class::method`, `ns::Class::method`, `Type::method` for a Rust
// impl or trait impl. The last segment may be a C++ destructor (`~Class`).
// Template arguments and paths to the file are not part of the name: the
// `files` glob says where to look.
func parseScoped(s string) (Name, error) {
	n := Name{Raw: s}
	if strings.TrimSpace(s) != s || s == "" {
		return n, fmt.Errorf("name %q: want fn, Type::method or ns::Class::method without spaces", s)
	}
	segs := strings.Split(strings.TrimPrefix(s, "::"), "::")
	for i, seg := range segs {
		id := seg
		if i == len(segs)-1 {
			id = strings.TrimPrefix(seg, "~")
		}
		if !isCIdent(id) {
			return n, fmt.Errorf("name %q: %q is not an identifier (want fn, Type::method or ns::Class::method)", s, seg)
		}
	}
	if strings.HasPrefix(s, "::") {
		// An empty first segment anchors the name at the file's top level.
		segs = append([]string{""}, segs...)
	}
	n.Scoped = segs
	return n, nil
}

// isCIdent reports whether s is an identifier in C, C++ and Rust: ASCII
// letters, digits and '_', not starting with a digit.
func isCIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// parsePattern checks a token pattern of the tree-sitter languages: a call
// (`enc.retain`, `enc->retain()`, `ns::f`), a macro invocation
// (`msg_send![encoder, retain]`) or a lock expression (`self.mu`). The
// front end parses it with the target's grammar and compares tokens; here
// only what needs no grammar is checked: it is not empty and its brackets
// balance outside string literals.
func parsePattern(s string) (Name, error) {
	n := Name{Raw: s}
	if strings.TrimSpace(s) == "" {
		return n, fmt.Errorf("empty pattern")
	}
	var stack []rune
	closing := map[rune]rune{')': '(', ']': '[', '}': '{'}
	var quote rune
	for i := 0; i < len(s); i++ {
		r := rune(s[i])
		switch {
		case quote != 0:
			switch r {
			case '\\':
				i++
			case quote:
				quote = 0
			}
		case r == '"':
			quote = r
		case r == '(' || r == '[' || r == '{':
			stack = append(stack, r)
		case closing[r] != 0:
			if len(stack) == 0 || stack[len(stack)-1] != closing[r] {
				return n, fmt.Errorf("pattern %q: unbalanced %q at offset %d", s, r, i)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return n, fmt.Errorf("pattern %q: unterminated string", s)
	}
	if len(stack) > 0 {
		return n, fmt.Errorf("pattern %q: unclosed %q", s, stack[len(stack)-1])
	}
	return n, nil
}
