package native

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Code is the code one invariant guards, parsed: the files of its globs
// with their definitions, as the tree-sitter front end sees them.
type Code struct {
	Inv *invariants.Invariant
	Src *treesitter.Source
	// targets are the definitions of the invariant's functions that
	// parse.
	targets []*treesitter.Function
}

// Load reads and parses the code of an invariant through view (nil: the
// disk): the files that can define its targets now, the others when a
// generator asks for the code that mentions a name.
func Load(inv *invariants.Invariant, view *overlay.Files) (*Code, error) {
	src, err := treesitter.LoadSource(inv, view)
	if err != nil {
		return nil, err
	}
	targets, err := src.Targets()
	if err != nil {
		return nil, err
	}
	c := &Code{Inv: inv, Src: src}
	for _, fn := range targets {
		// A definition with a syntax error cannot be verified, which the
		// baseline run reports.
		if syntax.FirstBad(fn.Func.Node) == nil {
			c.targets = append(c.targets, fn)
		}
	}
	return c, nil
}

// Targets returns the definitions of the invariant's functions that
// parse, file by file in source order.
func (c *Code) Targets() []*treesitter.Function { return c.targets }

// Mentioning returns every definition of the files that mention one of
// the words (see treesitter.Source.Mentioning): where a forbidden call or
// a write of a field can be.
func (c *Code) Mentioning(words ...string) ([]*treesitter.Function, error) {
	files, err := c.Src.Mentioning(words...)
	var out []*treesitter.Function
	for _, f := range files {
		out = append(out, f.Funcs...)
	}
	return out, err
}

// Dialect returns how reverts are written in a definition's language.
func (c *Code) Dialect() Dialect { return DialectOf(c.Inv.Lang) }

// target names a definition for the matrix and the mutants' names: its
// qualified name, and its line when another definition of the files has
// the same name (overloads under `all: true`).
func (c *Code) target(fn *treesitter.Function) string {
	name := fn.Name()
	for _, other := range c.sameName(fn) {
		if other != fn {
			return fmt.Sprintf("%s@%d", name, fn.File.Position(fn.Func.Node.Start).Line)
		}
	}
	return name
}

// sameName lists the loaded definitions with fn's qualified name: the
// targets, and the definitions of its own file.
func (c *Code) sameName(fn *treesitter.Function) []*treesitter.Function {
	var out []*treesitter.Function
	seen := map[*treesitter.Function]bool{}
	add := func(fns []*treesitter.Function) {
		for _, f := range fns {
			if !seen[f] && f.Name() == fn.Name() {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	add(c.targets)
	if sf := c.Src.FileOf(fn); sf != nil {
		add(sf.Funcs)
	}
	return out
}

// Void is a mutant that could not be built in host, with the reason.
func (c *Code) Void(host *treesitter.Function, op, why string) *mutant.Mutant {
	target := c.target(host)
	return &mutant.Mutant{Invariant: c.Inv, Target: target, Op: op, Name: mutant.MutantName(c.Inv, dotted(target), op), Void: why}
}

// dotted writes a qualified name with dots, as mutant names have it:
// ns::Class::m is ns.Class.m.
func dotted(name string) string { return strings.ReplaceAll(name, "::", ".") }

// site suffixes tell apart the mutants of several sites in one function,
// as the Go generators do: op@line.
func siteSuffix(fn *treesitter.Function, n *syntax.Node, sites int) string {
	if sites < 2 {
		return ""
	}
	return fmt.Sprintf("@%d", fn.File.Position(n.Start).Line)
}
