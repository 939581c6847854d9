package native

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutate"
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
	// view is what the files were read through, and what a mutant
	// replaces files of.
	view *overlay.Files
}

// Load reads and parses the code of an invariant through view (nil: the
// disk).
func Load(inv *invariants.Invariant, view *overlay.Files) (*Code, error) {
	src, err := treesitter.LoadSource(inv, view)
	if err != nil {
		return nil, err
	}
	return &Code{Inv: inv, Src: src, view: view}, nil
}

// Targets returns the definitions of the invariant's functions that parse
// (a definition with a syntax error cannot be verified, which the
// baseline run reports).
func (c *Code) Targets() []*treesitter.Function {
	var out []*treesitter.Function
	for _, fn := range c.Src.Targets() {
		if syntax.FirstBad(fn.Func.Node) == nil {
			out = append(out, fn)
		}
	}
	return out
}

// Funcs returns every definition of every file, in file order.
func (c *Code) Funcs() []*treesitter.Function {
	var out []*treesitter.Function
	for _, f := range c.Src.Files {
		out = append(out, f.Funcs...)
	}
	return out
}

// Dialect returns how reverts are written in a definition's language.
func (c *Code) Dialect() Dialect { return dialectOf(c.Inv.Lang) }

// target names a definition for the matrix and the mutants' names: its
// qualified name, and its line when another definition of the files has
// the same name (overloads under `all: true`).
func (c *Code) target(fn *treesitter.Function) string {
	name := fn.Name()
	for _, other := range c.Funcs() {
		if other != fn && other.Name() == name {
			return fmt.Sprintf("%s@%d", name, fn.File.Position(fn.Func.Node.Start).Line)
		}
	}
	return name
}

// Void is a mutant that could not be built in host, with the reason.
func (c *Code) Void(host *treesitter.Function, op, why string) *mutate.Mutant {
	target := c.target(host)
	return &mutate.Mutant{Invariant: c.Inv, Target: target, Op: op, Name: mutate.MutantName(c.Inv, dotted(target), op), Void: why}
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
