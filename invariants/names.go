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
	// TypeParams are the type parameters written after a generic type, as
	// go/types prints them: K and V in (*pkg.Map[K, V]).Get. The name
	// means the generic type; nil when none were written.
	TypeParams []string
	// Readings lists every way the name splits into a package path and
	// identifiers, when there is more than one: gopkg.in/yaml.v3.Marshal
	// is Marshal in gopkg.in/yaml.v3 or the member Marshal of a type v3 in
	// gopkg.in/yaml. Pkg, Ident and Member hold the first until
	// Set.Resolve picks the one whose package exists; nil once resolved.
	Readings []Reading
	// Pos is where the name is written.
	Pos Pos
	// Scoped is set for a C, C++, CUDA or Rust function name: its `::`
	// separated segments (`ns`, `Class`, `method`). For the other names of
	// those languages (calls, locks) only Raw and Pos are set: Raw is a
	// token pattern.
	Scoped []string
	// Params is the parameter list written after a scoped function name,
	// parentheses included (`(Stream)`, `()`), or "" when none is: it
	// selects overloads by their parameter types.
	Params string
}

// Reading is one split of a qualified name into the import path and the
// identifiers after it.
type Reading struct {
	Pkg, Ident, Member string
}

// String returns the name in the canonical go/types spelling, or as
// written for the tree-sitter languages.
func (n Name) String() string {
	if n.Pkg == "" {
		return n.Raw
	}
	return n.spell(n.Pkg)
}

// Short returns the name without its package path, for messages. A name
// still read several ways is shortened as written.
func (n Name) Short() string {
	if n.Pkg == "" {
		return n.Raw
	}
	if n.Readings != nil {
		open := len(n.Raw) - len(strings.TrimLeft(n.Raw, "(*"))
		return n.Raw[:open] + n.Raw[strings.LastIndex(n.Raw, "/")+1:]
	}
	pkg := n.Pkg
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	return n.spell(pkg)
}

// spell writes the name with pkg as its package.
func (n Name) spell(pkg string) string {
	typ := pkg + "." + n.Ident
	if n.TypeParams != nil {
		typ += "[" + strings.Join(n.TypeParams, ", ") + "]"
	}
	switch {
	case n.Member == "":
		return typ
	case n.Ptr:
		return "(*" + typ + ")." + n.Member
	}
	return "(" + typ + ")." + n.Member
}

// nameContext is what a name may be relative to.
type nameContext struct {
	module string // module path for "./" names
	pkg    string // default package for unqualified names (resolved)
	lang   Lang   // the invariant's language; Go unless set
	runs   []Name // the file's runners
	// nativeRuns are the file's runners written with `::`, for the
	// invariants of the tree-sitter languages.
	nativeRuns []Name
	// guards and lockCalls are the file's `guards` and `lock_calls`,
	// for the invariants of the tree-sitter languages.
	guards    []GuardType
	lockCalls LockCalls
}

// ParseName parses a Go name as invariants write it. module resolves "./"
// paths and defaultPkg resolves unqualified names; either may be empty, in
// which case names that need it are an error. A name with several readings
// (see Name.Readings) is returned with the first; Scope lookups in
// analyzers/golang/resolve try each.
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
	var readings []Reading
	var err error
	switch {
	case strings.HasPrefix(rest, "("):
		// Receiver form: (T).m, (*T).m, (pkg.T).m, (*pkg.T[P]).m.
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
		typ, params, err := cutTypeParams(inner, "")
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
		n.TypeParams = params
		readings, err = splitQualified(typ, ctx, member, "want one type name inside the parentheses")
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
	case strings.HasSuffix(rest, "]") || strings.Contains(rest, "]."):
		// A field of a generic type: pkg.T[P].f.
		typ, params, err := cutTypeParams(rest, ".")
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
		dot := strings.LastIndex(typ, ".")
		n.TypeParams = params
		readings, err = splitQualified(typ[:dot], ctx, typ[dot+1:], "too many selectors")
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
	default:
		readings, err = splitQualified(rest, ctx, "", "too many selectors")
		if err != nil {
			return n, fmt.Errorf("name %q: %w", s, err)
		}
	}
	n.Pkg, n.Ident, n.Member = readings[0].Pkg, readings[0].Ident, readings[0].Member
	if len(readings) > 1 {
		n.Readings = readings
	}
	return n, nil
}

// cutTypeParams removes a type parameter list written as go/types prints
// it (`Map[K, V]`) from the end of a type name, and returns the name and
// the parameters. member is "" when the list must end s (the receiver of
// (T[P]).m), or "." when a field follows it (T[P].f); the field is kept.
func cutTypeParams(s, member string) (string, []string, error) {
	closeAt := strings.LastIndex(s, "]")
	if closeAt < 0 {
		return s, nil, nil
	}
	openAt := strings.LastIndex(s[:closeAt], "[")
	after := s[closeAt+1:]
	switch {
	case openAt <= 0:
		return "", nil, fmt.Errorf("unbalanced ']'")
	case member == "" && after != "":
		return "", nil, fmt.Errorf("want the type parameters at the end of the type name: (T[P]).method")
	case member != "" && (!strings.HasPrefix(after, ".") || !token.IsIdentifier(after[1:])):
		return "", nil, fmt.Errorf("type parameters belong to a type: want T[P].field or (T[P]).method")
	}
	var params []string
	for _, p := range strings.Split(s[openAt+1:closeAt], ",") {
		p = strings.TrimSpace(p)
		if !token.IsIdentifier(p) {
			return "", nil, fmt.Errorf("type parameter %q is not an identifier (write the parameters as go/types prints them: Map[K, V])", p)
		}
		params = append(params, p)
	}
	return s[:openAt] + after, params, nil
}

// splitQualified splits "path.A" or "path.A.B" or a bare "A" into the
// package path and the identifiers after it. member, when set, follows
// the identifiers (a receiver's method, or a generic type's field), and
// then exactly one identifier is wanted; tooMany is the error otherwise.
//
// The split is at a dot of the last path element, and that element may
// itself hold dots (gopkg.in/yaml.v3, github.com/nats-io/nats.go): every
// dot that leaves a package path and one or two identifiers is a reading,
// shortest path first. The first dot is the reading a name had before
// dotted paths were supported, so a name whose path has no dot in its
// last element keeps it; which of several readings holds is decided
// against the packages a run knows (Set.Resolve).
func splitQualified(s string, ctx nameContext, member, tooMany string) ([]Reading, error) {
	switch {
	case strings.HasPrefix(s, `"`):
		end := strings.Index(s[1:], `"`)
		if end < 0 {
			return nil, fmt.Errorf("unterminated quoted package path")
		}
		pkg, rest := s[1:1+end], s[2+end:]
		if !strings.HasPrefix(rest, ".") {
			return nil, fmt.Errorf("want .Name after the quoted package path")
		}
		r, err := reading(pkg, rest[1:], ctx, member, tooMany)
		return []Reading{r}, err
	case !strings.Contains(s, "."):
		// Unqualified: lives in the default package.
		if ctx.pkg == "" {
			return nil, fmt.Errorf("unqualified name needs a `package` key on the invariant or the file")
		}
		r, err := reading(ctx.pkg, s, ctx, member, tooMany)
		return []Reading{r}, err
	}
	slash := strings.LastIndex(s, "/")
	var out []Reading
	var first error
	for i := slash + 1; i < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		r, err := reading(s[:i], s[i+1:], ctx, member, tooMany)
		switch {
		case err == nil:
			out = append(out, r)
		case first == nil && len(out) == 0:
			first = err
		}
	}
	if len(out) == 0 {
		if first == nil {
			first = fmt.Errorf("want package.Name")
		}
		return nil, first
	}
	return out, nil
}

// reading checks one split of a qualified name: the package path as
// written and the identifiers after it.
func reading(path, idents string, ctx nameContext, member, tooMany string) (Reading, error) {
	pkg, err := resolvePackage(path, ctx.module)
	if err != nil {
		return Reading{}, err
	}
	ids := strings.Split(idents, ".")
	for _, id := range ids {
		if !token.IsIdentifier(id) {
			return Reading{}, fmt.Errorf("%q is not an identifier", id)
		}
	}
	r := Reading{Pkg: pkg, Ident: ids[0], Member: member}
	switch {
	case member != "" && len(ids) == 1:
	case member == "" && len(ids) == 1:
	case member == "" && len(ids) == 2:
		r.Member = ids[1]
	default:
		return Reading{}, fmt.Errorf("%s", tooMany)
	}
	return r, nil
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
		if elem == "" || elem == "." || elem == ".." || strings.ContainsAny(elem, " \t\"\\()*[]") {
			return "", fmt.Errorf("malformed package path %q", p)
		}
	}
	return p, nil
}
