package core

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Proposal is an invariant a kind proposes from the facts of a fix,
// before it is proven against the fix's revert.
type Proposal struct {
	Kind invariants.Kind
	// Origin holds the target function (Function), where it is (Lang,
	// Package or Files), and the line of the fix the proposal comes
	// from.
	Origin
	// Field is the target when it is a field; Function is then where
	// the fact was found.
	Field string
	// Keys are the rule's mapping, in order.
	Keys []Key
	// Says is what the invariant says of its target, for a readable id:
	// a verb, and the name it is about when there is one ("calls",
	// "(*cpuLane).push").
	Says []string
}

// Key is one key of a rule's mapping: a scalar Value or, when List is
// set, a list.
type Key struct {
	Name  string
	Value string
	List  []string
}

// Target is the name of what the proposal guards.
func (p *Proposal) Target() string {
	if p.Field != "" {
		return p.Field
	}
	return p.Function
}

// YAML writes the proposal as an item of an invariants file's
// `invariants:` list starting at column 3, with its id, why and ref.
func (p *Proposal) YAML(id, why, ref string) string {
	var b strings.Builder
	line := func(indent int, key, value string) {
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat(" ", indent), key, yamlScalar(value))
	}
	fmt.Fprintf(&b, "  - id: %s\n", id)
	line(4, "why", why)
	line(4, "ref", ref)
	if p.Lang.TreeSitter() {
		line(4, "lang", string(p.Lang))
		if len(p.MoreFiles) == 0 {
			line(4, "files", p.Files)
		} else {
			globs := []string{yamlScalar(p.Files)}
			for _, g := range p.MoreFiles {
				globs = append(globs, yamlScalar(g))
			}
			fmt.Fprintf(&b, "    files: [%s]\n", strings.Join(globs, ", "))
		}
		if len(p.Erase) > 0 {
			fmt.Fprintf(&b, "    erase: [%s]\n", strings.Join(p.Erase, ", "))
		}
	} else if p.Package != "" {
		line(4, "package", p.Package)
	}
	if p.Field != "" {
		line(4, "field", p.Field)
	} else {
		line(4, "function", p.Function)
	}
	fmt.Fprintf(&b, "    %s:\n", p.Kind)
	for _, k := range p.Keys {
		if k.List != nil {
			quoted := make([]string, len(k.List))
			for i, v := range k.List {
				quoted[i] = yamlScalar(v)
			}
			fmt.Fprintf(&b, "      %s: [%s]\n", k.Name, strings.Join(quoted, ", "))
			continue
		}
		line(6, k.Name, k.Value)
	}
	return b.String()
}

// yamlScalar writes a YAML scalar plainly when that reads back as the
// same string, and double-quoted otherwise.
func yamlScalar(s string) string {
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
