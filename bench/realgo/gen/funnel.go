package main

import (
	"fmt"
	"go/ast"
	"go/format"
	"io"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// funnel counts, per module, what the generator scans and where the rule
// refuses: a module that yields no function shows whether its packages
// were read at all or the rule refused their functions, and at which
// point.
type funnel map[string]*moduleCount

// moduleCount is one module's line of the funnel.
type moduleCount struct {
	packages, files, functions, picked int
	// leftOut counts the packages point 24 of the after-unlock rule
	// leaves out because they do not load with the build list.
	leftOut int
	// refused counts functions by the point of the rule that refused them.
	refused map[string]int
}

// module is the count of the module that holds p ("std" for the standard
// library).
func (f funnel) module(p *packages.Package) *moduleCount {
	name := "std"
	if p.Module != nil {
		name = p.Module.Path
	}
	return f.named(name)
}

// named is the count of the module of that path.
func (f funnel) named(name string) *moduleCount {
	m := f[name]
	if m == nil {
		m = &moduleCount{refused: map[string]int{}}
		f[name] = m
	}
	return m
}

// print writes one line per module, in module order, and the totals.
func (f funnel) print(w io.Writer) {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	total := moduleCount{refused: map[string]int{}}
	for _, n := range names {
		m := f[n]
		fmt.Fprintf(w, "%s: %s\n", n, m)
		total.packages += m.packages
		total.files += m.files
		total.functions += m.functions
		total.picked += m.picked
		total.leftOut += m.leftOut
		for k, v := range m.refused {
			total.refused[k] += v
		}
	}
	fmt.Fprintf(w, "all: %s\n", &total)
}

// String writes the counts: packages, files and functions scanned, the
// functions each point refused, and those picked.
func (m *moduleCount) String() string {
	points := make([]string, 0, len(m.refused))
	for k := range m.refused {
		points = append(points, k)
	}
	sort.Strings(points)
	var refused []string
	for _, k := range points {
		refused = append(refused, fmt.Sprintf("%s %d", k, m.refused[k]))
	}
	s := fmt.Sprintf("%d packages, %d files, %d functions; refused by %s; picked %d",
		m.packages, m.files, m.functions, strings.Join(refused, ", "), m.picked)
	if m.leftOut > 0 {
		s += fmt.Sprintf("; %d packages left out (not loading)", m.leftOut)
	}
	return s
}

// refusals, when not nil (-refusals), receives one line per function that
// point 4 of the after-unlock rule refuses: where it is and the first
// statement after a release that the point does not allow, which is what
// a new version of the rule is designed from.
var refusals io.Writer

// explainRefusal writes that line for fd.
func explainRefusal(p *packages.Package, fd *ast.FuncDecl, st ast.Stmt) {
	if refusals == nil {
		return
	}
	what := "(none)"
	if st != nil {
		var b strings.Builder
		if err := format.Node(&b, p.Fset, st); err != nil {
			b.WriteString(err.Error())
		}
		what = strings.Join(strings.Fields(b.String()), " ")
		if len(what) > 160 {
			what = what[:160] + "..."
		}
	}
	pos := p.Fset.Position(fd.Pos())
	fmt.Fprintf(refusals, "%s:%d: point 4 refuses %s: %s\n", relTo(p, pos.Filename), pos.Line, fd.Name.Name, what)
}
