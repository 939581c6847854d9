package cfamily

import (
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// tri is a truth value that may be unknown: a condition that calls a
// function-like macro or uses __has_include cannot be decided here.
type tri int

const (
	unknown tri = iota
	yes
	no
)

// branch is one arm of a preprocessor conditional.
type branch struct {
	directive *syntax.Node // the #if/#elif/#else node
	items     []*syntax.Node
	live      tri
}

// branches flattens #if/#ifdef/#elif/#else into its arms, each live only
// when its condition holds and every earlier condition does not.
func branches(f *syntax.File, n *syntax.Node, c *model.Config) []branch {
	var out []branch
	earlier := no // whether some earlier arm may have been taken
	for n != nil {
		var cond tri
		switch n.Kind {
		case "preproc_if", "preproc_elif":
			cond = eval(f, n.Child("condition"), c)
		case "preproc_ifdef", "preproc_elifdef":
			_, defined := c.Lookup(f.Text(n.Child("name")))
			cond = boolTri(defined)
			if len(n.Children) > 0 && strings.HasSuffix(n.Children[0].Kind, "ndef") {
				cond = not(cond)
			}
		case "preproc_else":
			cond = yes
		default:
			return out
		}
		live := and(cond, not(earlier))
		var items []*syntax.Node
		for _, ch := range n.Children {
			if ch.Named && ch.Field == "" && !syntax.IsComment(ch) {
				items = append(items, ch)
			}
		}
		out = append(out, branch{directive: n, items: items, live: live})
		earlier = or(earlier, cond)
		n = n.Child("alternative")
	}
	return out
}

// isPreproc reports whether n starts a preprocessor conditional.
func isPreproc(n *syntax.Node) bool {
	return n.Kind == "preproc_if" || n.Kind == "preproc_ifdef"
}

// directiveText is the directive line of a branch, for messages.
func directiveText(f *syntax.File, n *syntax.Node) string {
	end := n.End
	if c := n.Child("condition"); c != nil {
		end = c.End
	} else if c := n.Child("name"); c != nil {
		end = c.End
	} else if len(n.Children) > 0 {
		end = n.Children[0].End
	}
	return strings.Join(strings.Fields(string(f.Src[n.Start:end])), " ")
}

// eval evaluates a #if condition: undefined identifiers are 0 and
// defined() asks the defines, as the preprocessor does. The evaluation
// recurses over the expression, so a condition nested deeper than
// syntax.MaxDepth is not evaluated and counts as undecided (compiled).
func eval(f *syntax.File, n *syntax.Node, c *model.Config) tri {
	if syntax.Depth(n, syntax.MaxDepth) > syntax.MaxDepth {
		return unknown
	}
	v, ok := value(f, n, c)
	if !ok {
		return unknown
	}
	return boolTri(v != 0)
}

// value computes the integer value of a #if expression, if it can.
func value(f *syntax.File, n *syntax.Node, c *model.Config) (int64, bool) {
	if n == nil {
		return 0, false
	}
	switch n.Kind {
	case "number_literal":
		return parseInt(f.Text(n))
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "identifier":
		vals, ok := c.Lookup(f.Text(n))
		if !ok {
			return 0, true
		}
		if len(vals) == 0 || vals[0] == "" {
			return 1, true
		}
		return parseInt(vals[0])
	case "preproc_defined":
		for _, ch := range n.Children {
			if ch.Kind == "identifier" {
				_, ok := c.Lookup(f.Text(ch))
				return b2i(ok), true
			}
		}
		return 0, false
	case "parenthesized_expression":
		if kids := n.NamedChildren(); len(kids) == 1 {
			return value(f, kids[0], c)
		}
	case "unary_expression":
		x, ok := value(f, n.Child("argument"), c)
		if !ok {
			return 0, false
		}
		switch f.Text(n.Child("operator")) {
		case "!":
			return b2i(x == 0), true
		case "-":
			return -x, true
		case "~":
			return ^x, true
		case "+":
			return x, true
		}
	case "binary_expression":
		return binary(f, n, c)
	}
	return 0, false
}

// binary computes a binary #if expression; && and || decide with one
// side unknown when the other settles them.
func binary(f *syntax.File, n *syntax.Node, c *model.Config) (int64, bool) {
	op := f.Text(n.Child("operator"))
	l, lok := value(f, n.Child("left"), c)
	r, rok := value(f, n.Child("right"), c)
	switch op {
	case "&&":
		if (lok && l == 0) || (rok && r == 0) {
			return 0, true
		}
		return 1, lok && rok
	case "||":
		if (lok && l != 0) || (rok && r != 0) {
			return 1, true
		}
		return 0, lok && rok
	}
	if !lok || !rok {
		return 0, false
	}
	switch op {
	case "==":
		return b2i(l == r), true
	case "!=":
		return b2i(l != r), true
	case "<":
		return b2i(l < r), true
	case ">":
		return b2i(l > r), true
	case "<=":
		return b2i(l <= r), true
	case ">=":
		return b2i(l >= r), true
	case "+":
		return l + r, true
	case "-":
		return l - r, true
	case "*":
		return l * r, true
	case "/", "%":
		if r == 0 {
			return 0, false
		}
		if op == "/" {
			return l / r, true
		}
		return l % r, true
	case "&":
		return l & r, true
	case "|":
		return l | r, true
	case "^":
		return l ^ r, true
	case "<<":
		return l << uint(r&63), true
	case ">>":
		return l >> uint(r&63), true
	}
	return 0, false
}

// parseInt reads a C integer literal, suffixes (u, l) included.
func parseInt(s string) (int64, bool) {
	s = strings.TrimRight(strings.ReplaceAll(s, "'", ""), "uUlL")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		if len(s) > 1 && s[0] == '0' && !strings.ContainsAny(s, "xXbB") {
			v, err = strconv.ParseInt(s[1:], 8, 64)
		}
		if err != nil {
			return 0, false
		}
	}
	return v, true
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// boolTri lifts a bool.
func boolTri(b bool) tri {
	if b {
		return yes
	}
	return no
}

// not negates; unknown stays unknown.
func not(t tri) tri {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

// and is false when either side is.
func and(a, b tri) tri {
	if a == no || b == no {
		return no
	}
	if a == yes && b == yes {
		return yes
	}
	return unknown
}

// or is true when either side is.
func or(a, b tri) tri {
	if a == yes || b == yes {
		return yes
	}
	if a == no && b == no {
		return no
	}
	return unknown
}
