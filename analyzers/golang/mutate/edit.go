package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// textEdit replaces the bytes [start, end) of a file by text.
type textEdit struct {
	start, end int
	text       string
}

// edits collects the text edits of one mutant over the files of one
// package, plus the declarations of the mutant's own file: mutants that
// need a flag, another mutex or a value of some type declare it there, so
// that the guarded file's imports never need to change.
type Edits struct {
	p       *Package
	byFile  map[string][]textEdit
	decls   []string
	imports map[string]string // import path -> name, for the mutant's own file
}

// NewEdits starts the edits of one mutant of a package.
func NewEdits(p *Package) *Edits {
	return &Edits{p: p, byFile: map[string][]textEdit{}, imports: map[string]string{}}
}

// replace replaces the source of [pos, end) by text.
func (e *Edits) Replace(pos, end token.Pos, text string) {
	a, b := e.p.Fset.Position(pos), e.p.Fset.Position(end)
	e.byFile[a.Filename] = append(e.byFile[a.Filename], textEdit{a.Offset, b.Offset, text})
}

// replaceNode replaces a node's source by text.
func (e *Edits) ReplaceNode(n ast.Node, text string) { e.Replace(n.Pos(), n.End(), text) }

// insert inserts text at pos.
func (e *Edits) Insert(pos token.Pos, text string) { e.Replace(pos, pos, text) }

// decl adds a declaration to the mutant's own file.
func (e *Edits) Decl(format string, args ...any) {
	e.decls = append(e.decls, fmt.Sprintf(format, args...))
}

// mutantFile is the name of the file a mutant adds for its declarations.
// The zz_ prefix keeps it last in the package, and the name has no build
// constraint suffix.
const mutantFile = "zz_guardlint_mutant.go"

// files applies the edits and returns the new content of every changed or
// added file, by absolute path.
func (e *Edits) Apply() (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, list := range e.byFile {
		src, ok := e.p.Src[name]
		if !ok {
			return nil, fmt.Errorf("no source for %s", name)
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].start > list[j].start })
		buf := bytes.Clone(src)
		limit := len(buf)
		for _, ed := range list {
			if ed.end > limit || ed.start > ed.end {
				return nil, fmt.Errorf("overlapping edits in %s", name)
			}
			buf = append(buf[:ed.start:ed.start], append([]byte(ed.text), buf[ed.end:]...)...)
			limit = ed.start
		}
		out[name] = buf
	}
	if len(e.decls) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\n", e.p.Pkg.Name)
		paths := make([]string, 0, len(e.imports))
		for p := range e.imports {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			fmt.Fprintf(&b, "import %s %s\n", e.imports[p], strconv.Quote(p))
		}
		for _, d := range e.decls {
			b.WriteString("\n" + d + "\n")
		}
		out[filepath.Join(e.p.Dir, mutantFile)] = []byte(b.String())
	}
	return out, nil
}

// text returns the source of a node.
func (p *Package) Text(n ast.Node) string {
	a, b := p.Fset.Position(n.Pos()), p.Fset.Position(n.End())
	return string(p.Src[a.Filename][a.Offset:b.Offset])
}

// indent returns the white space that starts the line of pos.
func (p *Package) Indent(pos token.Pos) string {
	at := p.Fset.Position(pos)
	src := p.Src[at.Filename]
	start := bytes.LastIndexByte(src[:at.Offset], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// lineComment turns every line of text into a // comment.
func lineComment(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " \t")
		lines[i] = l[:len(l)-len(trimmed)] + "// " + trimmed
	}
	return strings.Join(lines, "\n")
}
