package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
)

// Vacuous lists the reasons an invariant holds without constraining any
// code of this package: a name it speaks about (the call it forbids, the
// lock, the field) matches no code, or appears only in comments, string
// literals or test files. Such an invariant passes today whatever the
// code does; it is reported, not proved. A name that does not resolve is
// left out: the baseline run reports the invariant as unverifiable.
func (p *Package) Vacuous(names ...invariants.Name) []string {
	var out []string
	for _, n := range names {
		obj, err := p.Scope.Lookup(n)
		if err != nil {
			continue
		}
		if f, ok := obj.(*types.Func); ok {
			obj = f.Origin()
		}
		if p.Uses(obj) > 0 {
			continue
		}
		word := n.Member
		if word == "" {
			word = n.Ident
		}
		if where := p.TextOnly(word); where != "" {
			out = append(out, fmt.Sprintf("%s appears only in %s of package %s", n.Short(), where, p.Pkg.Name))
		} else {
			out = append(out, fmt.Sprintf("%s matches nothing: no code of package %s uses it", n.Short(), p.Pkg.Name))
		}
	}
	return out
}

// Uses counts the identifiers of the package's code (tests excluded) that
// refer to obj.
func (p *Package) Uses(obj types.Object) int {
	n := 0
	for id, o := range p.Pkg.TypesInfo.Uses {
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
	// An embedded field is also used by every selection promoted through
	// it (c.Lock() through an embedded sync.Mutex), which names only the
	// method.
	for _, sel := range p.Pkg.TypesInfo.Selections {
		t := sel.Recv()
		idx := sel.Index()
		for _, i := range idx[:len(idx)-1] {
			st, ok := locks.Deref(t).Underlying().(*types.Struct)
			if !ok {
				break
			}
			f := st.Field(i)
			if f.Origin() == obj {
				n++
			}
			t = f.Type()
		}
	}
	return n
}

// TextOnly says where word appears as text though no code uses it:
// "comments", "string literals", "test files", joined; "" when nowhere.
func (p *Package) TextOnly(word string) string {
	var where []string
	inComment, inString := false, false
	for _, f := range p.Pkg.Syntax {
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
	tests, _ := filepath.Glob(filepath.Join(p.Dir, "*_test.go"))
	for _, t := range tests {
		if data, err := os.ReadFile(t); err == nil && bytes.Contains(data, []byte(word)) {
			where = append(where, "test files")
			break
		}
	}
	return strings.Join(where, ", ")
}
