package driver

import (
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

// scopeLimit is how deep go/parser lets scopes nest: a file nested deeper
// (braces, if or for statements) is refused with "exceeded max scope depth
// during object resolution" when go/packages parses it.
const scopeLimit = 1000

// checkNesting refuses, before the packages are loaded, the Go files of
// the wanted packages that go/parser will refuse for their nesting.
//
// Loading compiles the packages (go list -export) before go/packages
// parses them, and the compiler takes time quadratic in the nesting: a
// function of 20,000 nested ifs takes 34 s to build and one of 100,000
// about fifteen minutes, only for go/parser to refuse the file at its
// 1,000th scope. Counting brackets with go/scanner costs a fraction of a
// parse, and only a file that nests deeper than scopeLimit is parsed
// here, to report go/parser's own error at its position.
func checkNesting(listed []*packages.Package, wanted []string) error {
	byPath := map[string]*packages.Package{}
	packages.Visit(listed, nil, func(p *packages.Package) { byPath[p.PkgPath] = p })
	var lines []string
	for _, path := range wanted {
		p := byPath[path]
		if p == nil {
			continue
		}
		for _, file := range p.GoFiles {
			src, err := os.ReadFile(file)
			if err != nil || maxNesting(src) <= scopeLimit {
				continue // an unreadable file is go/packages' to report
			}
			if _, err := parser.ParseFile(token.NewFileSet(), file, src, parser.AllErrors|parser.ParseComments); err != nil {
				var list scanner.ErrorList
				if errors.As(err, &list) && len(list) > 1 {
					err = list[0] // the depth error, not what it leaves behind
				}
				lines = append(lines, err.Error())
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("guardlint checks only code that type-checks:\n%s", strings.Join(lines, "\n"))
}

// maxNesting returns the deepest nesting of parentheses, brackets and
// braces in Go source, by its tokens, so that strings and comments do not
// count.
func maxNesting(src []byte) int {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	depth, deepest := 0, 0
	for {
		_, tok, _ := s.Scan()
		switch tok {
		case token.EOF:
			return deepest
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
			deepest = max(deepest, depth)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
	}
}
