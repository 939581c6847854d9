package fix

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// candidate is one proposed invariant, before it is proven.
type candidate struct {
	kind string
	// lang is "" for Go; pkg is the Go package ("./runtime"), files the
	// glob of a C, C++, CUDA or Rust target.
	lang, pkg, files string
	// function or field is the target.
	function, field string
	// keys are the rule's keys in order; a value that is a list is
	// written as one.
	keys []ruleKey
	// at is where in the fix the candidate comes from, for the comment.
	at string
	// id is set once candidates are numbered.
	id string
}

type ruleKey struct {
	name  string
	value string
	list  []string
}

// baseID is a readable id: the target, what it must do, the name.
func (c *candidate) baseID() string {
	target := c.function
	if target == "" {
		target = c.field
	}
	verb := map[string]string{"call": "calls", "hold": "holds", "requires": "requires", "forbid": "forbids", "owns": "owned", "order": "orders"}[c.kind]
	parts := []string{short(target), verb}
	if len(c.keys) > 0 && c.kind != "owns" {
		v := c.keys[0].value
		if v == "" && len(c.keys[0].list) > 0 {
			v = c.keys[0].list[0]
		}
		parts = append(parts, short(v))
	}
	return sanitize(strings.Join(parts, "-"))
}

var notID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// short is the last element of a name: `(*CommandBuffer).reset` is
// CommandBuffer.reset, `gpu::Registry::add` is Registry.add.
func short(name string) string {
	name = strings.NewReplacer("(*", "", "(", "", ")", "", "::", ".", "->", ".", "!", "").Replace(name)
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	parts := strings.Split(name, ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ".")
}

func sanitize(s string) string {
	s = strings.Trim(notID.ReplaceAllString(s, "-"), "-._")
	if s == "" {
		return "suggested"
	}
	return s
}

// yaml writes the candidate as an item of `invariants:`, indented for a
// file whose list starts at column 3.
func (c *candidate) yaml(why, ref string) string {
	var b strings.Builder
	line := func(indent int, key, value string) {
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat(" ", indent), key, quote(value))
	}
	fmt.Fprintf(&b, "  - id: %s\n", c.id)
	line(4, "why", why)
	line(4, "ref", ref)
	if c.lang != "" {
		line(4, "lang", c.lang)
		line(4, "files", c.files)
	} else if c.pkg != "" {
		line(4, "package", c.pkg)
	}
	if c.field != "" {
		line(4, "field", c.field)
	} else {
		line(4, "function", c.function)
	}
	fmt.Fprintf(&b, "    %s:\n", c.kind)
	for _, k := range c.keys {
		if k.list != nil {
			quoted := make([]string, len(k.list))
			for i, v := range k.list {
				quoted[i] = quote(v)
			}
			fmt.Fprintf(&b, "      %s: [%s]\n", k.name, strings.Join(quoted, ", "))
			continue
		}
		line(6, k.name, k.value)
	}
	return b.String()
}

// quote writes a YAML scalar plainly when that reads back as the same
// string, and double-quoted otherwise.
func quote(s string) string {
	if s == "" || strings.ContainsAny(s, ":#,[]{}&*!|>'\"%@`\n") && !plainSafe(s) || strings.TrimSpace(s) != s ||
		strings.ContainsAny(s[:1], "-?*&!|>'\"%@`#,[]{}") || s == "true" || s == "false" || s == "null" {
		return strconv.Quote(s)
	}
	return s
}

// plainSafe reports whether s, with the characters YAML treats as
// indicators only in some places, still reads back plainly: a name such
// as (*T).m or ns::f, where ':' is never followed by a space and no '#'
// follows a space.
func plainSafe(s string) bool {
	return !strings.Contains(s, ": ") && !strings.Contains(s, " #") && !strings.ContainsAny(s, "[]{},&!|>'\"%@`\n") && !strings.HasSuffix(s, ":")
}
