package invariants

import (
	"fmt"
	"go/token"
	"strings"
)

// Name is a parsed reference to Go code: a package-level object
// (function, variable, type), or a member (method or field) of a named type.
type Name struct {
	// Raw is the name as written in the invariants file.
	Raw string
	// Pkg is the resolved import path.
	Pkg string
	// Ident is the package-level identifier: a function, a variable or,
	// when Member is set, the type that declares the member.
	Ident string
	// Member is the method or field name, or "" for a package-level object.
	Member string
	// Ptr reports that the receiver was written with a star: (*T).m.
	Ptr bool
	// Pos is where the name is written.
	Pos Pos
	// Scoped is set for a C, C++, CUDA or Rust function name: its `::`
	// separated segments (`ns`, `Class`, `method`). For the other names of
	// those languages (calls, locks) only Raw and Pos are set: Raw is a
	// token pattern.
	Scoped []string
}

// String returns the name in the canonical go/types spelling, or as
// written for the tree-sitter languages.
func (n Name) String() string {
	if n.Pkg == "" {
		return n.Raw
	}
	if n.Member == "" {
		return n.Pkg + "." + n.Ident
	}
	if n.Ptr {
		return "(*" + n.Pkg + "." + n.Ident + ")." + n.Member
	}
	return "(" + n.Pkg + "." + n.Ident + ")." + n.Member
}

// Short returns the name without its package path, for messages.
func (n Name) Short() string {
	if n.Pkg == "" {
		return n.Raw
	}
	pkg := n.Pkg
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	if n.Member == "" {
		return pkg + "." + n.Ident
	}
	if n.Ptr {
		return "(*" + pkg + "." + n.Ident + ")." + n.Member
	}
	return "(" + pkg + "." + n.Ident + ")." + n.Member
}

// nameContext is what a name may be relative to.
type nameContext struct {
	module string // module path for "./" names
	pkg    string // default package for unqualified names (resolved)
	lang   Lang   // the invariant's language; Go unless set
}

// ParseName parses a Go name as invariants write it. module resolves "./"
// paths and defaultPkg resolves unqualified names; either may be empty, in
// which case names that need it are an error.
func ParseName(s, module, defaultPkg string) (Name, error) {
	return parseName(s, nameContext{module: module, pkg: defaultPkg})
}

func parseName(s string, ctx nameContext) (Name, error) {
	n := Name{Raw: s}
	rest := strings.TrimSpace(s)
	if rest == "" {
		return n, fmt.Errorf("empty name")
	}
	if rest != s {
		return n, fmt.Errorf("name %q has surrounding spaces", s)
	}
	// Receiver form: (T).m, (*T).m, (pkg.T).m, (*pkg.T).m.
	if strings.HasPrefix(rest, "(") {
		closeAt := strings.LastIndex(rest, ")")
		if closeAt < 0 {
			return n, fmt.Errorf("name %q: missing ')'", s)
		}
		inner, after := rest[1:closeAt], rest[closeAt+1:]
		if !strings.HasPrefix(after, ".") {
			return n, fmt.Errorf("name %q: want (T).member after the receiver", s)
		}
		member := after[1:]
		if !token.IsIdentifier(member) {
			return n, fmt.Errorf("name %q: %q is not an identifier", s, member)
		}
		if strings.HasPrefix(inner, "*") {
			n.Ptr = true
			inner = inner[1:]
		}
		pkg, idents, err := splitQualified(inner, ctx)
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
		if len(idents) != 1 {
			return n, fmt.Errorf("name %q: want one type name inside the parentheses", s)
		}
		n.Pkg, n.Ident, n.Member = pkg, idents[0], member
		return n, nil
	}
	pkg, idents, err := splitQualified(rest, ctx)
	if err != nil {
		return n, fmt.Errorf("name %q: %w", s, err)
	}
	switch len(idents) {
	case 1:
		n.Pkg, n.Ident = pkg, idents[0]
	case 2:
		n.Pkg, n.Ident, n.Member = pkg, idents[0], idents[1]
	default:
		return n, fmt.Errorf("name %q: too many selectors", s)
	}
	return n, nil
}

// splitQualified splits "path.A" or "path.A.B" or a bare "A" into the
// package path and the identifiers after it.
func splitQualified(s string, ctx nameContext) (string, []string, error) {
	var pkg, rest string
	switch {
	case strings.HasPrefix(s, `"`):
		end := strings.Index(s[1:], `"`)
		if end < 0 {
			return "", nil, fmt.Errorf("unterminated quoted package path")
		}
		pkg, rest = s[1:1+end], s[2+end:]
		if !strings.HasPrefix(rest, ".") {
			return "", nil, fmt.Errorf("want .Name after the quoted package path")
		}
		rest = rest[1:]
	case !strings.Contains(s, "."):
		// Unqualified: lives in the default package.
		if ctx.pkg == "" {
			return "", nil, fmt.Errorf("unqualified name needs a `package` key on the invariant or the file")
		}
		pkg, rest = ctx.pkg, s
	default:
		slash := strings.LastIndex(s, "/")
		dot := strings.Index(s[slash+1:], ".")
		if dot < 0 {
			return "", nil, fmt.Errorf("want package.Name")
		}
		pkg, rest = s[:slash+1+dot], s[slash+2+dot:]
	}
	pkg, err := resolvePackage(pkg, ctx.module)
	if err != nil {
		return "", nil, err
	}
	idents := strings.Split(rest, ".")
	for _, id := range idents {
		if !token.IsIdentifier(id) {
			return "", nil, fmt.Errorf("%q is not an identifier", id)
		}
	}
	return pkg, idents, nil
}

// resolvePackage turns a package path as written into an import path.
func resolvePackage(p, module string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty package path")
	}
	if p == "." || p == "./" || strings.HasPrefix(p, "./") {
		if module == "" {
			return "", fmt.Errorf("package %q is relative to the module, but no go.mod was found above the invariants file", p)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "."), "/")
		if rel == "" {
			return module, nil
		}
		p = module + "/" + rel
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "" || elem == "." || elem == ".." || strings.ContainsAny(elem, " \t\"\\()*") {
			return "", fmt.Errorf("malformed package path %q", p)
		}
	}
	return p, nil
}
