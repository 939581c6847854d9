package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

const module = "github.com/guardlint/guardlint/"

// register adds the kind to registry.Kinds (last) and imports its
// package.
func (k *kind) register(src []byte) ([]byte, error) {
	src, err := appendElement(src, "Kinds", "\t"+k.Pkg+".Kind,\n")
	if err != nil {
		return nil, err
	}
	return addImport(src, module+k.dir())
}

// addFacetRow gives the kind its row in the registry's facet table: the
// facets the generated stubs have.
func (k *kind) addFacetRow(src []byte) ([]byte, error) {
	row := fmt.Sprintf("\t%s: {fGoAnalyzer, fGoMutants, fTSFunction, fNativeMutants},\n", strconv.Quote(k.Name))
	return appendElement(src, "facetTable", row)
}

// addDocs puts the kind's section last among the rule kinds of
// docs/invariants.md, before the section that follows them.
func (k *kind) addDocs(src []byte) ([]byte, error) {
	const next = "\n## Failing closed\n"
	i := bytes.Index(src, []byte(next))
	if i < 0 {
		return nil, errNoAnchor
	}
	section, err := k.render("docs.md.tmpl")
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), src[:i+1]...)
	out = append(out, section...)
	return append(out, src[i+1:]...), nil
}

// appendElement inserts text before the closing brace of the composite
// literal that initialises the package-level variable name.
func appendElement(src []byte, name, text string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	var lit *ast.CompositeLit
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, id := range v.Names {
				if id.Name == name && i < len(v.Values) {
					lit, _ = v.Values[i].(*ast.CompositeLit)
				}
			}
		}
	}
	if lit == nil {
		return nil, fmt.Errorf("var %s: %w", name, errNoAnchor)
	}
	at := fset.Position(lit.Rbrace).Offset
	// The closing brace stands on a line of its own: insert before that line.
	for at > 0 && src[at-1] != '\n' {
		at--
	}
	out := append([]byte(nil), src[:at]...)
	out = append(out, text...)
	out = append(out, src[at:]...)
	return format.Source(out)
}

// addImport imports path into the Go file src.
func addImport(src []byte, path string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	astutil.AddImport(fset, f, path)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
