package prove

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// isVoid reports whether err says that a mutant is void.
func isVoid(err error) bool { return errors.Is(err, errVoid) }

// voidReason is a void error's message without its marker.
func voidReason(err error) string { return strings.TrimPrefix(err.Error(), errVoid.Error()+": ") }

// vacuity lists the reasons an invariant holds without constraining any
// code of this package: the name it speaks about (the call it forbids,
// the lock, the field) matches no code, or appears only in comments,
// string literals or test files. Such an invariant passes today whatever
// the code does; it is reported, not proved.
//
// Required calls are not checked here: an invariant that requires a call
// that is not there does not hold, which the baseline run reports.
func (p *goPackage) vacuity(inv *invariants.Invariant) []string {
	var names []invariants.Name
	switch inv.Kind {
	case invariants.KindForbid:
		names = []invariants.Name{inv.Forbid.Call}
	case invariants.KindHold:
		names = []invariants.Name{inv.Hold.Lock}
	case invariants.KindOwns:
		if inv.Field.Pkg != p.pkg.PkgPath {
			return nil
		}
		names = []invariants.Name{*inv.Field}
	}
	var out []string
	for _, n := range names {
		obj, err := p.scope.Lookup(n)
		if err != nil {
			continue // unverifiable: the baseline run reports it
		}
		if f, ok := obj.(*types.Func); ok {
			obj = f.Origin()
		}
		if p.uses(obj) > 0 {
			continue
		}
		word := n.Member
		if word == "" {
			word = n.Ident
		}
		if where := p.textOnly(word); where != "" {
			out = append(out, fmt.Sprintf("%s appears only in %s of package %s", n.Short(), where, p.pkg.Name))
		} else {
			out = append(out, fmt.Sprintf("%s matches nothing: no code of package %s uses it", n.Short(), p.pkg.Name))
		}
	}
	return out
}

// uses counts the identifiers of the package's code (tests excluded) that
// refer to obj.
func (p *goPackage) uses(obj types.Object) int {
	n := 0
	for id, o := range p.pkg.TypesInfo.Uses {
		switch f := o.(type) {
		case *types.Func:
			o = f.Origin()
		case *types.Var: // a field of an instance of a generic type
			o = f.Origin()
		}
		if o == obj && id.Name != "_" {
			n++
		}
	}
	return n
}

// textOnly says where word appears as text though no code uses it:
// "comments", "string literals", "test files", joined; "" when nowhere.
func (p *goPackage) textOnly(word string) string {
	var where []string
	inComment, inString := false, false
	for _, f := range p.pkg.Syntax {
		for _, cg := range f.Comments {
			if strings.Contains(cg.Text(), word) {
				inComment = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(lit.Value, word) {
				inString = true
			}
			return true
		})
	}
	if inComment {
		where = append(where, "comments")
	}
	if inString {
		where = append(where, "string literals")
	}
	tests, _ := filepath.Glob(filepath.Join(p.dir, "*_test.go"))
	for _, t := range tests {
		if data, err := os.ReadFile(t); err == nil && bytes.Contains(data, []byte(word)) {
			where = append(where, "test files")
			break
		}
	}
	return strings.Join(where, ", ")
}
