package rustlang

import (
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// cfgEnabled evaluates the `#[cfg(...)]` attributes in attrs under the
// configuration: a predicate is true when the invariant sets it (`test:
// true` sets `test`, `feature: [a]` sets `feature = "a"`), as rustc does
// for the options it is given. It also returns the attribute that
// disables the item, for messages.
func cfgEnabled(f *syntax.File, attrs []*syntax.Node, c *model.Config) (bool, *syntax.Node) {
	for _, a := range attrs {
		for _, attr := range a.NamedChildren() {
			if attr.Kind != "attribute" {
				continue
			}
			kids := attr.NamedChildren()
			if len(kids) == 0 || f.Text(kids[0]) != "cfg" {
				continue
			}
			args := attr.Child("arguments")
			if args == nil {
				continue
			}
			if !evalPredicates(f, f.Tokens(args), c) {
				return false, a
			}
		}
	}
	return true, nil
}

// evalPredicates evaluates the token tree `( predicate )`.
func evalPredicates(f *syntax.File, toks []string, c *model.Config) bool {
	if len(toks) < 2 || toks[0] != "(" || toks[len(toks)-1] != ")" {
		return true // not a cfg we can read; keep the code
	}
	p := &cfgParser{toks: toks[1 : len(toks)-1], c: c}
	v := p.predicate()
	if p.bad || p.i != len(p.toks) {
		return true
	}
	return v
}

// cfgParser is a recursive-descent reader of cfg predicates over tokens.
type cfgParser struct {
	toks []string
	i    int
	c    *model.Config
	bad  bool
	// depth is the nesting of any/all/not at the current token.
	depth int
}

// maxCfgDepth bounds the nesting of a predicate that is read; a deeper one
// (no real crate nests any/all/not more than a few levels) is unreadable,
// and the code under it is kept, as for any cfg that cannot be read.
const maxCfgDepth = 1000

// next consumes a token; past the end it marks the predicate unreadable.
func (p *cfgParser) next() string {
	if p.i >= len(p.toks) {
		p.bad = true
		return ""
	}
	t := p.toks[p.i]
	p.i++
	return t
}

// peek returns the next token without consuming it, or "".
func (p *cfgParser) peek() string {
	if p.i >= len(p.toks) {
		return ""
	}
	return p.toks[p.i]
}

// predicate reads one predicate: any(..), all(..), not(..), a name or
// name = "value".
func (p *cfgParser) predicate() bool {
	name := p.next()
	switch name {
	case "any", "all", "not":
		if p.next() != "(" || p.depth >= maxCfgDepth {
			p.bad = true
			return true
		}
		p.depth++
		var vals []bool
		for p.peek() != ")" && !p.bad {
			vals = append(vals, p.predicate())
			if p.peek() == "," {
				p.next()
			}
		}
		p.depth--
		p.next()
		switch name {
		case "any":
			for _, v := range vals {
				if v {
					return true
				}
			}
			return false
		case "all":
			for _, v := range vals {
				if !v {
					return false
				}
			}
			return true
		default:
			if len(vals) != 1 {
				p.bad = true
				return true
			}
			return !vals[0]
		}
	}
	vals, set := p.c.Lookup(name)
	if p.peek() != "=" {
		return set && (len(vals) != 1 || vals[0] != "false")
	}
	p.next()
	// A string literal is three tokens: the quotes and the content, or
	// two for an empty string.
	want := ""
	if p.next() != `"` {
		p.bad = true
		return true
	}
	if p.peek() != `"` {
		want = p.next()
	}
	p.next()
	return slices.Contains(vals, want)
}

// attrsBefore returns the attribute items directly before sib[at] among
// its siblings (comments skipped). Callers pass the index they iterate
// with: looking it up would make a block of n statements cost n².
func attrsBefore(sib []*syntax.Node, at int) []*syntax.Node {
	var out []*syntax.Node
	for i := at - 1; i >= 0; i-- {
		s := sib[i]
		if syntax.IsComment(s) {
			continue
		}
		if s.Kind != "attribute_item" {
			break
		}
		out = append(out, s)
	}
	return out
}

// cfgText renders a disabling attribute for messages.
func cfgText(f *syntax.File, a *syntax.Node) string {
	return strings.Join(strings.Fields(f.Text(a)), " ")
}
