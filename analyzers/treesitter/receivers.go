package treesitter

import (
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// A method call is followed into the files by its receiver's type, never
// by its name alone: `library_map_.find(k)`, on a std::unordered_map, is
// not CompileCache::find. The receiver's type is read from the
// declarations the front end parses:
//   - `this`, `*this` and Rust's `self`: the caller's class or impl type;
//   - a local (`Foo x;`, `Foo* p = ..;`, `auto x = Foo(..);`,
//     `auto p = std::make_unique<Foo>(..);`, `auto* p = static_cast<Foo*>(..);`,
//     `let x: Foo = ..;`,
//     `let x = Foo::new(..);`, `let x = Foo { .. };`) or a parameter with
//     its type;
//   - a member (`mu_`, `this->cache_`, `self.cache`), by its declaration
//     in a class or struct of the files, the class's bases' included;
//   - a smart pointer (`std::unique_ptr<Foo>` with `->`, Rust's `Arc<Foo>`,
//     `Rc<Foo>`, `Box<Foo>`, `&Foo`) is the type it points to.
//
// A method of a class is called through its bases and its derived classes
// too (a virtual call, a trait's default method, a `dyn Trait`). A
// receiver of a type the files do not declare (a library's) calls none of
// the files' functions. A receiver whose type is not known (the value of
// a call, an element, a template or generic parameter, `auto` bound to a
// function's result) is not followed either: Unknown lists it, and the
// kinds say once per invariant where that may hide what they look for.
// Free calls (`f()`) are followed by name, qualified ones (`ns::f()`,
// `Foo::f()`, `Self::f()`) to the functions whose path ends with theirs.

// typeIndex is what the files declare of their types. A class is known by
// its path, the namespaces, classes and modules around it then its name,
// as the front ends name the functions (`leveldb::SkipList::Iterator`):
// two classes of one name in different scopes are two classes.
type typeIndex struct {
	classes map[string]*classInfo
	byLast  map[string][]*classInfo
	aliases map[string][]declType // by the alias's own name
	// methods are the functions of the files by the path of their class.
	methods map[string][]*Function
	derived map[string][]*classInfo
	// locals caches each function's locals and parameters by name.
	locals map[*Function]map[string][]localAt
}

// classInfo is one class, struct, union, enum, trait, or a scope that
// only the paths of the functions defined in it show.
type classInfo struct {
	path   []string
	key    string
	bases  []declType // unresolved
	fields map[string]declType
	// resolved are the bases, once read.
	resolved []*classInfo
	// decl: a declaration of the files declares it (else only the paths
	// of functions show it: it may be a namespace).
	decl bool
}

// declared reports whether a path is a class, struct, union, enum or
// trait the files declare.
func (t *typeIndex) declared(path []string) bool {
	c, ok := t.classes[pathKey(path)]
	return ok && c.decl
}

// declType is a declared type: its node, in its file, and the scope it
// is written in (where its name is looked up).
type declType struct {
	f     *syntax.File
	n     *syntax.Node
	scope []string
}

// smartPointers point to their first type argument.
var smartPointers = map[string]bool{
	// The standard library's, Chromium's scoped_refptr and WeakPtr,
	// Windows' ComPtr, gRPC's reference-counted and orphanable pointers,
	// Boost's intrusive_ptr, Qt's QSharedPointer, QScopedPointer and
	// QPointer, and std::auto_ptr, all of which `->` makes their pointee.
	"unique_ptr": true, "shared_ptr": true, "weak_ptr": true, "auto_ptr": true,
	"scoped_refptr": true, "WeakPtr": true, "ComPtr": true,
	"RefCountedPtr": true, "WeakRefCountedPtr": true, "OrphanablePtr": true,
	"intrusive_ptr": true, "QSharedPointer": true, "QScopedPointer": true, "QPointer": true,
	"Arc": true, "Rc": true, "Box": true,
}

func pathKey(p []string) string { return strings.Join(p, "::") }

// newTypeIndex reads the type declarations of the functions' files and,
// with headers, of the job's other parsed files (typeFiles: a header
// that only declares a class holds its bases and its fields' types).
// excludes and lock_order read the functions' files only, the figures of
// their corpora measured so; guarded_by reads the headers too.
func newTypeIndex(fns []*Function, headers bool) *typeIndex {
	t := &typeIndex{classes: map[string]*classInfo{}, byLast: map[string][]*classInfo{}, aliases: map[string][]declType{},
		methods: map[string][]*Function{}, derived: map[string][]*classInfo{}, locals: map[*Function]map[string][]localAt{}}
	files := typeFilesOf(fns)
	if !headers {
		files = nil
		seen := map[*syntax.File]bool{}
		for _, fn := range fns {
			if !seen[fn.File] {
				seen[fn.File] = true
				files = append(files, fn.File)
			}
		}
	}
	for _, f := range files {
		t.read(f)
	}
	for _, fn := range fns {
		if p := fn.Func.Path; len(p) >= 2 {
			t.class(p[:len(p)-1])
			t.methods[pathKey(p[:len(p)-1])] = append(t.methods[pathKey(p[:len(p)-1])], fn)
		}
	}
	for _, c := range t.classes {
		for _, b := range c.bases {
			for _, bc := range t.resolve(b, 0) {
				if bc != c {
					c.resolved = append(c.resolved, bc)
					t.derived[bc.key] = append(t.derived[bc.key], c)
				}
			}
		}
	}
	return t
}

// class returns the class of a path, recording it the first time.
func (t *typeIndex) class(path []string) *classInfo {
	key := pathKey(path)
	if c, ok := t.classes[key]; ok {
		return c
	}
	c := &classInfo{path: slices.Clone(path), key: key, fields: map[string]declType{}}
	t.classes[key] = c
	t.byLast[path[len(path)-1]] = append(t.byLast[path[len(path)-1]], c)
	return c
}

// scopeOf is the path of the namespaces, classes, modules and impls
// around a node, as the front ends build functions' paths.
func scopeOf(f *syntax.File, n *syntax.Node) []string {
	var rev [][]string
	for p := n.Parent; p != nil; p = p.Parent {
		var segs []string
		switch p.Kind {
		case "namespace_definition", "mod_item", "trait_item":
			if name := p.Child("name"); name != nil {
				segs = nameSegsOf(f, name)
			}
		case "class_specifier", "struct_specifier", "union_specifier":
			if name := p.Child("name"); name != nil && p.Child("body") != nil {
				segs = nameSegsOf(f, name)
			}
		case "impl_item":
			if name := lastTypeName(f, p.Child("type")); name != "" {
				segs = []string{name}
			}
		}
		if len(segs) > 0 {
			rev = append(rev, segs)
		}
	}
	var out []string
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i]...)
	}
	return out
}

// nameSegsOf are the segments of a declared name, template arguments
// aside: `a::b` is a, b; `Foo<T>` is Foo.
func nameSegsOf(f *syntax.File, n *syntax.Node) []string {
	switch n.Kind {
	case "qualified_identifier", "scoped_identifier", "scoped_type_identifier", "nested_namespace_specifier":
		var out []string
		for _, ch := range n.NamedChildren() {
			out = append(out, nameSegsOf(f, ch)...)
		}
		return out
	case "template_type", "template_function", "generic_type":
		name := n.Child("name")
		if name == nil {
			name = n.Child("type")
		}
		if name != nil {
			return nameSegsOf(f, name)
		}
		return nil
	case "identifier", "type_identifier", "namespace_identifier", "field_identifier", "primitive_type":
		return []string{f.Text(n)}
	}
	return nil
}

// read adds one file's declarations.
func (t *typeIndex) read(f *syntax.File) {
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		switch n.Kind {
		case "class_specifier", "struct_specifier", "union_specifier":
			name, body := n.Child("name"), n.Child("body")
			if name == nil || body == nil {
				return true
			}
			path := append(scopeOf(f, n), nameSegsOf(f, name)...)
			if len(path) == 0 {
				return true
			}
			c := t.class(path)
			c.decl = true
			for _, k := range n.NamedChildren() {
				if k.Kind != "base_class_clause" {
					continue
				}
				for _, b := range k.NamedChildren() {
					if b.Kind != "access_specifier" && b.Kind != "virtual" {
						c.bases = append(c.bases, declType{f, b, path[:len(path)-1]})
					}
				}
			}
			for _, d := range body.NamedChildren() {
				if d.Kind != "field_declaration" || d.Child("type") == nil {
					continue
				}
				for _, decl := range d.ChildrenOf("declarator") {
					if id := FieldName(decl); id != nil {
						c.fields[f.Text(id)] = declType{f, d.Child("type"), path}
					}
				}
			}
		case "struct_item", "union_item", "enum_item", "trait_item", "enum_specifier":
			name := n.Child("name")
			if name == nil {
				return true
			}
			path := append(scopeOf(f, n), f.Text(name))
			c := t.class(path)
			c.decl = true
			if body := n.Child("body"); body != nil && n.Kind != "trait_item" {
				for _, d := range body.NamedChildren() {
					if d.Kind == "field_declaration" && d.Child("name") != nil && d.Child("type") != nil {
						c.fields[f.Text(d.Child("name"))] = declType{f, d.Child("type"), path}
					}
				}
			}
		case "impl_item":
			if tr := n.Child("trait"); tr != nil {
				if name := lastTypeName(f, n.Child("type")); name != "" {
					c := t.class(append(scopeOf(f, n), name))
					c.bases = append(c.bases, declType{f, tr, scopeOf(f, n)})
				}
			}
		case "type_definition":
			// typedef T X;
			for _, d := range n.ChildrenOf("declarator") {
				if id := FieldName(d); id != nil && n.Child("type") != nil {
					t.aliases[f.Text(id)] = append(t.aliases[f.Text(id)], declType{f, n.Child("type"), scopeOf(f, n)})
				}
			}
		case "alias_declaration":
			// using X = T;
			if name, ty := n.Child("name"), n.Child("type"); name != nil && ty != nil && ty.Child("type") != nil {
				t.aliases[f.Text(name)] = append(t.aliases[f.Text(name)], declType{f, ty.Child("type"), scopeOf(f, n)})
			}
		case "type_item":
			// type X = T;
			if name, ty := n.Child("name"), n.Child("type"); name != nil && ty != nil {
				t.aliases[f.Text(name)] = append(t.aliases[f.Text(name)], declType{f, ty, scopeOf(f, n)})
			}
		}
		return true
	})
}

// lastTypeName is the last segment of a type's name, without template or
// generic arguments: `std::map<K, V>` is map, `a::S<T>` is S.
func lastTypeName(f *syntax.File, n *syntax.Node) string {
	segs := typeSegs(f, n)
	if len(segs) == 0 {
		return ""
	}
	return segs[len(segs)-1]
}

// typeSegs are the segments of a type's name, through references,
// pointers, const and template arguments.
func typeSegs(f *syntax.File, n *syntax.Node) []string {
	for n != nil {
		switch n.Kind {
		case "reference_type", "pointer_type", "type_descriptor":
			n = n.Child("type")
			continue
		case "struct_specifier", "class_specifier", "union_specifier":
			// A member declared with its struct: `struct Header {..} header;`.
			if name := n.Child("name"); name != nil {
				n = name
				continue
			}
			return nil
		case "qualified_identifier", "scoped_type_identifier", "scoped_identifier", "template_type", "template_function",
			"generic_type", "identifier", "type_identifier", "namespace_identifier", "field_identifier", "primitive_type":
			return nameSegsOf(f, n)
		}
		return nil
	}
	return nil
}

// typeArgs are a type's template or generic arguments.
func typeArgs(n *syntax.Node) []*syntax.Node {
	for n != nil {
		switch n.Kind {
		case "qualified_identifier", "scoped_type_identifier":
			n = n.Child("name")
			continue
		case "template_type", "template_function":
			if a := n.Child("arguments"); a != nil {
				return a.NamedChildren()
			}
		case "generic_type":
			if a := n.Child("type_arguments"); a != nil {
				return a.NamedChildren()
			}
		case "reference_type", "pointer_type", "type_descriptor":
			n = n.Child("type")
			continue
		}
		return nil
	}
	return nil
}

// resolve finds the classes of the files a declared type names (an alias
// followed): those whose path ends with the type's segments and whose
// remaining scope encloses the place the type is written, the innermost
// first as C++ and Rust look names up; failing that, every class whose
// path ends with them. None: a type the files do not declare.
func (t *typeIndex) resolve(d declType, depth int) []*classInfo {
	segs := typeSegs(d.f, d.n)
	if len(segs) == 0 || depth > 8 {
		return nil
	}
	return t.resolveSegs(segs, d.scope, depth)
}

func (t *typeIndex) resolveSegs(segs, scope []string, depth int) []*classInfo {
	var cands []*classInfo
	for _, c := range t.byLast[segs[len(segs)-1]] {
		if len(c.path) >= len(segs) && slices.Equal(c.path[len(c.path)-len(segs):], segs) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		// An alias: `Table::Iterator` with `typedef SkipList<..> Table;`.
		for _, a := range t.aliases[segs[0]] {
			for _, target := range t.resolve(a, depth+1) {
				if len(segs) == 1 {
					cands = append(cands, target)
				} else if c, ok := t.classes[pathKey(append(slices.Clone(target.path), segs[1:]...))]; ok {
					cands = append(cands, c)
				}
			}
		}
		return cands
	}
	best, bestLen := []*classInfo(nil), -1
	for _, c := range cands {
		outer := c.path[:len(c.path)-len(segs)]
		if len(outer) > len(scope) || !slices.Equal(scope[:len(outer)], outer) {
			continue
		}
		switch {
		case len(outer) > bestLen:
			best, bestLen = []*classInfo{c}, len(outer)
		case len(outer) == bestLen:
			best = append(best, c)
		}
	}
	if best != nil {
		return best
	}
	return cands
}

// receiverClass is what a receiver's type says of a call.
type receiverClass struct {
	classes []*classInfo // the classes whose methods it calls; none for a type the files do not declare
	known   bool         // false: the type is not known
}

var unknownType = receiverClass{}

// classOf reads a declared type as the classes whose methods a call on it
// reaches (arrow: called with `->`, through a pointer). Smart pointers
// are their pointee; aliases are followed.
func (t *typeIndex) classOf(d declType, arrow bool, generics []string, depth int) receiverClass {
	if d.n == nil || depth > 8 {
		return unknownType
	}
	n := d.n
	switch n.Kind {
	case "placeholder_type_specifier", "auto":
		return unknownType
	case "dynamic_type", "abstract_type":
		// dyn Trait, impl Trait: the trait's implementations.
		if tr := n.Child("trait"); tr != nil {
			return t.classOf(declType{d.f, tr, d.scope}, false, generics, depth+1)
		}
		return unknownType
	}
	segs := typeSegs(d.f, n)
	if len(segs) == 0 {
		return unknownType
	}
	name := segs[len(segs)-1]
	if len(segs) == 1 && slices.Contains(generics, name) {
		return unknownType
	}
	if smartPointers[name] && (arrow || d.f.Lang == "rust") {
		if args := typeArgs(n); len(args) > 0 {
			return t.classOf(declType{d.f, args[0], d.scope}, false, generics, depth+1)
		}
		return unknownType
	}
	if cs := t.resolveSegs(segs, d.scope, depth); len(cs) > 0 {
		return receiverClass{classes: cs, known: true}
	}
	if len(segs) == 1 {
		// An alias of a smart pointer or of a library type.
		for _, a := range t.aliases[name] {
			if rc := t.classOf(a, arrow, generics, depth+1); rc.known {
				return rc
			}
		}
	}
	return receiverClass{known: true}
}

// named is the class of a caller's own type, by its path.
func (t *typeIndex) named(path []string) receiverClass {
	if len(path) == 0 {
		return unknownType
	}
	if c, ok := t.classes[pathKey(path)]; ok {
		return receiverClass{classes: []*classInfo{c}, known: true}
	}
	return unknownType
}

// fieldType finds a member's declaration in a class or its bases.
func (t *typeIndex) fieldType(c *classInfo, name string, depth int) (declType, bool) {
	if d, ok := c.fields[name]; ok {
		return d, true
	}
	if depth > 16 {
		return declType{}, false
	}
	for _, b := range c.resolved {
		if d, ok := t.fieldType(b, name, depth+1); ok {
			return d, true
		}
	}
	return declType{}, false
}

// Dispatch returns the methods named name that a call on a receiver of
// the classes runs: the definition the class has or inherits from its
// nearest base that defines one, and the overrides of its derived
// classes. When they are those of more than one class, which one runs is
// decided at run time from a type the declarations do not give: ok is
// false.
func (t *typeIndex) dispatch(classes []*classInfo, name string) (out []*Function, ok bool) {
	owners := map[string]bool{}
	add := func(c *classInfo) bool {
		found := false
		for _, fn := range t.methods[c.key] {
			if fn.Func.Path[len(fn.Func.Path)-1] == name {
				if !slices.Contains(out, fn) {
					out = append(out, fn)
				}
				owners[c.key], found = true, true
			}
		}
		return found
	}
	for _, c := range classes {
		// The nearest definition, up the bases.
		level, seen := []*classInfo{c}, map[*classInfo]bool{c: true}
		for depth := 0; len(level) > 0 && depth < 16; depth++ {
			found := false
			var next []*classInfo
			for _, k := range level {
				found = add(k) || found
				for _, b := range k.resolved {
					if !seen[b] {
						seen[b] = true
						next = append(next, b)
					}
				}
			}
			if found {
				break
			}
			level = next
		}
		// The overrides, down the derived classes.
		stack, down := []*classInfo{c}, map[*classInfo]bool{c: true}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range t.derived[k.key] {
				if !down[d] {
					down[d] = true
					add(d)
					stack = append(stack, d)
				}
			}
		}
	}
	return out, len(owners) <= 1
}

// callerClass is the class or impl type a function is a method of, by
// its last segment.
func callerClass(fn *Function) string {
	if p := fn.Func.Path; len(p) >= 2 {
		return p[len(p)-2]
	}
	return ""
}

// callerScope is the path of the class, impl or namespace a function is
// defined in.
func callerScope(fn *Function) []string {
	return fn.Func.Path[:len(fn.Func.Path)-1]
}

// generics are the template and generic parameters in scope of a
// function: its own and those of the classes, templates and impls around
// it.
func generics(fn *Function) []string {
	var out []string
	f := fn.File
	for n := fn.Func.Node; n != nil; n = n.Parent {
		var ps *syntax.Node
		switch n.Kind {
		case "template_declaration":
			ps = n.Child("parameters")
		case "function_item", "impl_item", "struct_item", "trait_item":
			ps = n.Child("type_parameters")
		}
		if ps == nil {
			continue
		}
		for _, p := range ps.NamedChildren() {
			syntax.Walk(p, func(k *syntax.Node) bool {
				if k.Kind == "type_identifier" {
					out = append(out, f.Text(k))
					return false
				}
				return true
			})
		}
	}
	return out
}

// receiverOf is the class a method call's receiver is of; ok is false
// for a call that is no method call.
func (t *typeIndex) receiverOf(fn *Function, c *model.Call) (recv *syntax.Node, arrow, ok bool) {
	callee := c.Node.Child("function")
	if callee == nil || callee.Kind != "field_expression" {
		return nil, false, false
	}
	if fn.File.Lang == "rust" {
		return callee.Child("value"), false, true
	}
	return callee.Child("argument"), fn.File.Text(callee.Child("operator")) == "->", true
}

// exprClass types a receiver expression.
func (t *typeIndex) exprClass(fn *Function, e *syntax.Node, arrow bool, at *syntax.Node, gens []string, depth int) receiverClass {
	if e == nil || depth > 8 {
		return unknownType
	}
	f := fn.File
	switch e.Kind {
	case "this", "self":
		return t.named(callerScope(fn))
	case "parenthesized_expression":
		if kids := e.NamedChildren(); len(kids) == 1 {
			return t.exprClass(fn, kids[0], arrow, at, gens, depth+1)
		}
	case "pointer_expression":
		if f.Text(e.Child("operator")) == "*" {
			return t.exprClass(fn, e.Child("argument"), true, at, gens, depth+1)
		}
	case "identifier":
		name := f.Text(e)
		if d, ok := t.localType(fn, name, at); ok {
			return t.declClass(fn, d, arrow, gens)
		}
		if f.Lang == "rust" {
			break
		}
		// A member of the caller's class, through `this`.
		if own := t.named(callerScope(fn)); own.known {
			return t.memberClass(own, name, arrow, gens)
		}
	case "field_expression":
		base, field := e.Child("argument"), e.Child("field")
		baseArrow := f.Text(e.Child("operator")) == "->"
		if f.Lang == "rust" {
			base, baseArrow = e.Child("value"), false
		}
		if field == nil {
			break
		}
		return t.memberClass(t.exprClass(fn, base, baseArrow, at, gens, depth+1), f.Text(field), arrow, gens)
	}
	return unknownType
}

// memberClass types a member of a receiver: its declaration in one of the
// receiver's classes (or their bases).
func (t *typeIndex) memberClass(of receiverClass, name string, arrow bool, gens []string) receiverClass {
	for _, c := range of.classes {
		if d, ok := t.fieldType(c, name, 0); ok {
			return t.classOf(d, arrow, gens, 0)
		}
	}
	return unknownType
}

// declClass types a local or parameter's declaration: its type, or for
// `auto` its value.
func (t *typeIndex) declClass(fn *Function, d localDecl, arrow bool, gens []string) receiverClass {
	f, scope := fn.File, callerScope(fn)
	if d.typ != nil && d.typ.Kind != "placeholder_type_specifier" {
		return t.classOf(declType{f, d.typ, scope}, arrow, gens, 0)
	}
	v := d.value
	if v == nil {
		return unknownType
	}
	switch v.Kind {
	case "compound_literal_expression", "cast_expression":
		// (Foo){..}, and a C cast: `auto* p = (Foo*)arg;`.
		return t.classOf(declType{f, v.Child("type"), scope}, arrow, gens, 0)
	case "new_expression":
		return t.classOf(declType{f, v.Child("type"), scope}, false, gens, 0)
	case "struct_expression":
		return t.classOf(declType{f, v.Child("name"), scope}, false, gens, 0)
	case "call_expression":
		callee := v.Child("function")
		if callee == nil {
			break
		}
		segs := typeSegs(f, callee)
		name := ""
		if len(segs) > 0 {
			name = segs[len(segs)-1]
		}
		switch {
		case model.NamedCasts[name] && len(segs) == 1:
			// auto* self = static_cast<Foo*>(arg);
			if args := typeArgs(callee); len(args) > 0 {
				return t.classOf(declType{f, args[0], scope}, arrow, gens, 0)
			}
		case name == "make_unique" || name == "make_shared":
			if args := typeArgs(callee); len(args) > 0 {
				return t.classOf(declType{f, args[0], scope}, false, gens, 0)
			}
		case f.Lang == "rust" && callee.Kind == "scoped_identifier" && (name == "new" || name == "default") && callee.Child("path") != nil:
			// Foo::new(..) and Foo::default() are a Foo.
			return t.classOf(declType{f, callee.Child("path"), scope}, false, gens, 0)
		case f.Lang != "rust" && len(segs) > 0 && len(t.resolveSegs(segs, scope, 0)) > 0:
			// auto x = Foo(..);
			return t.classOf(declType{f, callee, scope}, arrow, gens, 0)
		}
	}
	return unknownType
}

// localDecl is a local's or parameter's declaration: its type, and the
// value of an `auto` (or untyped let) one.
type localDecl struct {
	typ, value *syntax.Node
}

// localAt is one declaration of a local or parameter: where it starts
// and the node it is in scope in.
type localAt struct {
	start int
	scope *syntax.Node
	decl  localDecl
}

// localsOf indexes a function's locals and parameters by name, once.
func (t *typeIndex) localsOf(fn *Function) map[string][]localAt {
	if m, ok := t.locals[fn]; ok {
		return m
	}
	f := fn.File
	m := map[string][]localAt{}
	add := func(name string, n, scope *syntax.Node, d localDecl) {
		if scope == nil {
			scope = fn.Func.Node
		}
		m[name] = append(m[name], localAt{n.Start, scope, d})
	}
	syntax.Walk(fn.Func.Node, func(n *syntax.Node) bool {
		if n != fn.Func.Node && definitions[n.Kind] {
			return false
		}
		switch n.Kind {
		case "declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop":
			scope := n.Parent
			if n.Kind == "for_range_loop" {
				scope = n
			} else if n.Kind != "declaration" {
				scope = fn.Func.Node
			}
			for _, d := range n.ChildrenOf("declarator") {
				id := FieldName(d)
				if id == nil {
					continue
				}
				ld := localDecl{typ: n.Child("type")}
				if d.Kind == "init_declarator" {
					ld.value = d.Child("value")
				}
				add(f.Text(id), n, scope, ld)
			}
		case "let_declaration", "parameter":
			p := n.Child("pattern")
			if p != nil && p.Kind == "mut_pattern" {
				if kids := p.NamedChildren(); len(kids) > 0 {
					p = kids[len(kids)-1]
				}
			}
			scope := n.Parent
			if n.Kind == "parameter" {
				scope = fn.Func.Node
			}
			if p != nil && p.Kind == "identifier" {
				add(f.Text(p), n, scope, localDecl{typ: n.Child("type"), value: n.Child("value")})
			}
		}
		return true
	})
	t.locals[fn] = m
	return m
}

// localType finds the last declaration of a local named name before a
// point of the body whose scope holds that point, or the parameter of
// that name.
func (t *typeIndex) localType(fn *Function, name string, at *syntax.Node) (localDecl, bool) {
	var out localDecl
	found := false
	for _, l := range t.localsOf(fn)[name] {
		if l.start < at.Start && l.scope.Contains(at) {
			out, found = l.decl, true
		}
	}
	return out, found
}
