package native

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/guardlint/guardlint/analyzers/mutate"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// textEdit replaces the bytes [start, end) of a file by text.
type textEdit struct {
	start, end int
	text       string
}

// Edits are the text edits of one mutant, over the files of a Code.
type Edits struct {
	byFile map[*syntax.File][]textEdit
}

// NewEdits starts the edits of one mutant.
func (c *Code) NewEdits() *Edits { return &Edits{byFile: map[*syntax.File][]textEdit{}} }

// Replace replaces the bytes [start, end) of f by text.
func (e *Edits) Replace(f *syntax.File, start, end int, text string) {
	e.byFile[f] = append(e.byFile[f], textEdit{start, end, text})
}

// Insert inserts text at an offset of f.
func (e *Edits) Insert(f *syntax.File, at int, text string) { e.Replace(f, at, at, text) }

// ReplaceNode replaces a node's text.
func (e *Edits) ReplaceNode(f *syntax.File, n *syntax.Node, text string) {
	e.Replace(f, n.Start, n.End, text)
}

// AtEntry inserts a statement as the first of a function's body, on a
// line of its own.
func (e *Edits) AtEntry(fn *treesitter.Function, stmt string) {
	body := fn.Func.Body
	ind := bodyIndent(fn)
	e.Insert(fn.File, body.Start+1, "\n"+ind+stmt)
}

// applied is one changed file: its new content and where the edits put
// new text in it.
type applied struct {
	src     []byte
	changed [][2]int // [start, end) of every edit's text in src
}

// apply applies the edits of one file, last first; edits that overlap are
// an error.
func apply(src []byte, list []textEdit) (applied, error) {
	list = slices.Clone(list)
	sort.SliceStable(list, func(i, j int) bool { return list[i].start < list[j].start })
	var out applied
	last := 0
	for _, ed := range list {
		if ed.start < last || ed.end < ed.start || ed.end > len(src) {
			return applied{}, fmt.Errorf("overlapping edits")
		}
		out.src = append(out.src, src[last:ed.start]...)
		out.changed = append(out.changed, [2]int{len(out.src), len(out.src) + len(ed.text)})
		out.src = append(out.src, ed.text...)
		last = ed.end
	}
	out.src = append(out.src, src[last:]...)
	return out, nil
}

// Mutant builds a mutant from its edits: host is the function whose
// definition is the site, the region where the invariant must fire. A
// mutant whose edits cannot be applied, that no longer parses where it
// changed the code or in host, or that adds a syntax error to a file, is
// void, and so is one given a reason (void).
func (c *Code) Mutant(host *treesitter.Function, op string, e *Edits, void string) *mutate.Mutant {
	m := c.Void(host, op, void)
	if void != "" {
		return m
	}
	files := map[string][]byte{}
	var hostFile *treesitter.SourceFile
	for f, list := range e.byFile {
		a, err := apply(f.Src, list)
		if err != nil {
			m.Void = err.Error()
			return m
		}
		sf, err := c.Src.Parse(f.Path, a.src)
		if err != nil {
			m.Void = "does not parse: " + err.Error()
			return m
		}
		if why := newErrors(f, sf.File, a.changed); why != "" {
			m.Void = why
			return m
		}
		files[f.Path] = a.src
		if f == host.File {
			hostFile = sf
		}
	}
	if hostFile == nil {
		sf, err := c.Src.Parse(host.File.Path, host.File.Src)
		if err != nil {
			m.Void = "does not parse: " + err.Error()
			return m
		}
		hostFile = sf
	}
	def := c.findAgain(host, hostFile)
	if def == nil {
		m.Void = "the mutated file has no " + m.Target
		return m
	}
	m.Files = files
	m.Site = mutate.Site{
		File:  host.File.Path,
		Func:  m.Target,
		Start: def.File.Position(def.Func.Node.Start).Line,
		End:   def.File.Position(def.Func.Node.End).Line,
	}
	return m
}

// newErrors says why a mutated file is void: it has an ERROR or MISSING
// node inside text a mutant changed, or more of them than the original
// (a brace the edit unbalanced shows up far from it). "" when neither.
func newErrors(orig, mutated *syntax.File, changed [][2]int) string {
	before, after := badNodes(orig.Root), badNodes(mutated.Root)
	for _, b := range after {
		for _, ch := range changed {
			if b.Start < ch[1] && ch[0] < b.End || b.Start == ch[0] {
				return "does not parse: " + errorAt(mutated, b)
			}
		}
	}
	if len(after) > len(before) {
		return "does not parse: " + errorAt(mutated, after[0])
	}
	return ""
}

// errorAt describes a bad node with its position.
func errorAt(f *syntax.File, bad *syntax.Node) string {
	what := "a syntax error"
	if bad.Kind != "ERROR" {
		what = "a missing " + bad.Kind
	}
	p := f.Position(bad.Start)
	return fmt.Sprintf("%s at %s:%d:%d", what, filepath.Base(p.Filename), p.Line, p.Column)
}

// badNodes lists the ERROR and MISSING nodes of a tree, outermost only.
func badNodes(root *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	stack := []*syntax.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Bad {
			out = append(out, n)
			continue
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
	return out
}

// findAgain finds a definition in the mutated version of its file: the
// one with the same qualified name, counting definitions of that name in
// order (overloads have the same name).
func (c *Code) findAgain(host *treesitter.Function, mutated *treesitter.SourceFile) *treesitter.Function {
	name := host.Name()
	nth := 0
	for _, f := range c.fileOf(host).Funcs {
		if f == host {
			break
		}
		if f.Name() == name {
			nth++
		}
	}
	for _, f := range mutated.Funcs {
		if f.Name() != name {
			continue
		}
		if nth == 0 {
			return f
		}
		nth--
	}
	return nil
}

// fileOf returns the loaded file of a definition.
func (c *Code) fileOf(fn *treesitter.Function) *treesitter.SourceFile {
	for _, f := range c.Src.Files {
		if f.File == fn.File {
			return f
		}
	}
	return &treesitter.SourceFile{File: fn.File}
}
