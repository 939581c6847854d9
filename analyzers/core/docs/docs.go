// Package docs turns an analyzer package's documentation into the
// analyzer's Doc string, so that the text is written once, in doc.go.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"sync"
)

// Extract returns the Doc of analyzer name from the source of a doc.go
// whose package comment has a "# Analyzer name" section: the section's
// first line ("name: summary") becomes the summary, the rest the body.
// It panics on a doc.go without that section: that is a programming error
// caught by every test of the package.
//
// A suite's analyzers are built for each configuration, and guardlint
// prove builds one suite per mutant, so the text is extracted once per
// section and kept.
func Extract(docGo, name string) string {
	key := section{docGo, name}
	if doc, ok := extracted.Load(key); ok {
		return doc.(string)
	}
	doc := extract(docGo, name)
	extracted.Store(key, doc)
	return doc
}

// section names one "# Analyzer" section of one doc.go.
type section struct{ docGo, name string }

// extracted holds the Doc of every section extracted so far.
var extracted sync.Map

// extract is Extract without the memo.
func extract(docGo, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic(fmt.Sprintf("docs: doc.go of %s has no package comment", name))
	}
	text := (&ast.CommentGroup{List: f.Doc.List}).Text()
	_, section, ok := strings.Cut(text, "# Analyzer "+name+"\n")
	if !ok {
		panic(fmt.Sprintf("docs: doc.go has no \"# Analyzer %s\" section", name))
	}
	section = strings.TrimLeft(section, "\n")
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	summary, body, _ := strings.Cut(section, "\n")
	summary, ok = strings.CutPrefix(summary, name+": ")
	if !ok {
		panic(fmt.Sprintf("docs: the %s section must start with %q", name, name+": summary"))
	}
	return strings.TrimSpace(summary + "\n\n" + strings.TrimSpace(body))
}
