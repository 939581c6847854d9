package native

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/guardlint/guardlint/analyzers/mutant"
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

// applied is one changed file: its new content and where each edit put
// its text.
type applied struct {
	src     []byte
	changed []change
}

// change is one applied edit: the bytes [start, end) of the original
// became [newStart, newEnd) of the new content.
type change struct {
	start, end       int
	newStart, newEnd int
}

// original maps an offset of the new content back to the original, or
// reports that it lies inside text an edit wrote.
func (a applied) original(x int) (int, bool) {
	shift := 0
	for _, ch := range a.changed {
		switch {
		case x < ch.newStart:
			return x - shift, true
		case x == ch.newStart:
			return ch.start, true
		case x < ch.newEnd:
			return 0, false
		case x == ch.newEnd:
			return ch.end, true
		}
		shift = ch.newEnd - ch.end
	}
	return x - shift, true
}

// apply applies the edits of one file in the order of their offsets
// (inserts at one offset in the order they were made); edits that overlap
// are an error.
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
		out.changed = append(out.changed, change{ed.start, ed.end, len(out.src), len(out.src) + len(ed.text)})
		out.src = append(out.src, ed.text...)
		last = ed.end
	}
	out.src = append(out.src, src[last:]...)
	return out, nil
}

// Mutant builds a mutant from its edits: host is the function whose
// definition is the site, the region where the invariant must fire. A
// mutant whose edits cannot be applied, or that adds a syntax error to a
// file (newErrors), is void, and so is one given a reason (void).
func (c *Code) Mutant(host *treesitter.Function, op string, e *Edits, void string) *mutant.Mutant {
	m := c.Void(host, op, void)
	if void != "" {
		return m
	}
	files := map[string][]byte{}
	var hostFile *treesitter.SourceFile
	for f, list := range e.byFile {
		a, err := apply(c.Src.Original(f), list)
		if err != nil {
			m.Void = err.Error()
			return m
		}
		sf, err := c.Src.Parse(f.Path, a.src)
		if err != nil {
			m.Void = "does not parse: " + err.Error()
			return m
		}
		if why := newErrors(f, sf.File, a); why != "" {
			m.Void = why
			return m
		}
		files[f.Path] = a.src
		if f == host.File {
			hostFile = sf
		}
	}
	if hostFile == nil {
		sf, err := c.Src.Parse(host.File.Path, c.Src.Original(host.File))
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
	m.Site = mutant.Site{
		File:  host.File.Path,
		Func:  m.Target,
		Start: def.File.Position(def.Func.Node.Start).Line,
		End:   def.File.Position(def.Func.Node.End).Line,
	}
	return m
}

// newErrors says why a mutated file is void: it has an ERROR or MISSING
// node that the original did not have at the same place, one inside text
// the mutant wrote or one the edit caused far from it (a brace it
// unbalanced, an #if it left open). "" when it has none. Errors the file
// had already, which in macro-heavy headers can enclose the target
// (tree-sitter recovers around `_GLIBCXX_BEGIN_NAMESPACE_VERSION`), are
// not the mutant's.
func newErrors(orig, mutated *syntax.File, a applied) string {
	type key struct {
		kind       string
		start, end int
	}
	had := map[key]bool{}
	for _, b := range badNodes(orig.Root) {
		had[key{b.Kind, b.Start, b.End}] = true
	}
	for _, b := range badNodes(mutated.Root) {
		start, ok1 := a.original(b.Start)
		end, ok2 := a.original(b.End)
		if !ok1 || !ok2 || !had[key{b.Kind, start, end}] {
			return "does not parse: " + errorAt(mutated, b)
		}
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

// badNodes lists the ERROR and MISSING nodes of a tree, those inside
// others too: a new error inside one the file had is new.
func badNodes(root *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	stack := []*syntax.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Bad {
			out = append(out, n)
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
	for _, f := range c.Src.FileOf(host).Funcs {
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
