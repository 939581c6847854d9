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
//
// A parameter list after the name selects overloads by their parameter
// types, as the language spells them: `synchronize(Stream)`,
// `synchronize()`, `Buffer::copy(const Buffer&, size_t)`. The loader
// keeps it as written; the front end parses it in the invariant's
// language.
func parseScoped(s string) (Name, error) {
	n := Name{Raw: s}
	if s == "" || strings.TrimSpace(s) != s {
		return n, fmt.Errorf("name %q: want fn, Type::method or ns::Class::method without spaces", s)
	}
	path := s
	if open := strings.IndexByte(s, '('); open > 0 {
		path, n.Params = s[:open], s[open:]
		if err := checkParams(n.Params); err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
	}
	segs := strings.Split(strings.TrimPrefix(path, "::"), "::")
	for i, seg := range segs {
		id := seg
		if i == len(segs)-1 {
			id = strings.TrimPrefix(seg, "~")
		}
		if !isCIdent(id) {
			return n, fmt.Errorf("name %q: %q is not an identifier (want fn, Type::method or ns::Class::method)", s, seg)
		}
	}
	if strings.HasPrefix(path, "::") {
		// An empty first segment anchors the name at the file's top level.
		segs = append([]string{""}, segs...)
	}
	n.Scoped = segs
	return n, nil
}

// checkParams checks a parameter list written after a scoped name: it
// is parenthesised, its brackets balance, and nothing follows it.
func checkParams(p string) error {
	depth := 0
	for i, r := range p {
		switch r {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
			if depth < 0 {
				return fmt.Errorf("unbalanced %q in the parameter list", r)
			}
			if depth == 0 && i != len(p)-1 {
				return fmt.Errorf("want the parameter list last: fn(T, U)")
			}
		}
	}
	if depth != 0 || !strings.HasSuffix(p, ")") {
		return fmt.Errorf("unclosed parameter list %q", p)
	}
	return nil
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
