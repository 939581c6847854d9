package fix

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// trivialCallee reports whether an added call of C, C++, CUDA or Rust
// says nothing of what a fix keeps, so that suggest does not propose it
// as `call`: Rust's Ok, Err, Some, Box::new, the formatting and assertion
// macros, conversions (from, into, clone, to_owned, to_string, unwrap,
// expect), C++'s std::move, std::forward and the construction of a
// standard type (std::make_shared, std::string(...), std::vector<T>{}),
// and a call through std:: of a name that starts with an upper-case
// letter or is a plain type's constructor. A lock or guard the fix adds
// is proposed as hold, and a call in a condition as order, whatever its
// name.
func trivialCallee(callee []string) bool {
	if len(callee) == 0 {
		return true
	}
	joined := strings.Join(callee, "")
	last := callee[len(callee)-1]
	if last == "!" && len(callee) >= 2 {
		// A Rust macro: formatting, printing, assertions, vec!.
		switch callee[len(callee)-2] {
		case "format", "format_args", "write", "writeln", "print", "println", "eprint", "eprintln",
			"panic", "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne",
			"unreachable", "todo", "unimplemented", "vec", "matches", "dbg", "concat", "stringify", "cfg",
			"trace", "debug", "info", "warn", "error":
			return true
		}
		return false
	}
	switch joined {
	case "Ok", "Err", "Some", "None", "Box::new", "Arc::new", "Rc::new", "String::new", "String::from", "Vec::new",
		"Vec::with_capacity", "Default::default", "std::move", "std::forward", "move", "forward",
		"std::make_shared", "std::make_unique", "make_shared", "make_unique", "std::to_string", "std::swap",
		"std::get", "std::min", "std::max", "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast":
		return true
	}
	switch last {
	case "clone", "to_owned", "to_string", "into", "from", "try_from", "try_into", "as_ref", "as_mut",
		"unwrap", "expect", "unwrap_or", "unwrap_or_default", "unwrap_or_else", "ok", "err", "is_some", "is_none",
		"is_ok", "is_err", "len", "is_empty", "iter", "iter_mut", "into_iter", "map", "collect", "as_str",
		"c_str", "data", "size", "empty", "begin", "end", "push_back", "emplace_back", "get", "default",
		// A container's element access and edits: the data a fix works on,
		// not what it keeps (a lock or a call of the program's own code).
		"front", "back", "pop_front", "pop_back", "at", "find", "count", "insert", "erase", "emplace", "top",
		"contains", "contains_key", "get_mut", "entry", "first", "last":
		return true
	}
	// A primitive's conversion (u64::from, usize::try_from) or a
	// standard type's construction (std::string(..), std::vector<int>{}).
	if len(callee) >= 3 && callee[1] == "::" {
		switch callee[0] {
		case "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "bool", "char", "str":
			return true
		}
	}
	if strings.HasPrefix(joined, "std::") {
		c := last[0]
		if c >= 'A' && c <= 'Z' || strings.Contains(joined, "<") || isStdType(last) {
			return true
		}
	}
	return false
}

// isStdType reports whether a name is one of the standard C++ types a
// call constructs (std::string(s), std::vector<T>(n)).
func isStdType(name string) bool {
	switch name {
	case "string", "string_view", "vector", "array", "map", "unordered_map", "set", "unordered_set", "deque",
		"pair", "tuple", "optional", "function", "shared_ptr", "unique_ptr", "weak_ptr", "thread", "chrono":
		return true
	}
	return false
}

// testRegion reports whether a function is test code: in a file under a
// test directory (testPath), or, in Rust, under #[cfg(test)] or #[test].
type testRegion struct {
	all   bool
	spans [][2]int
}

func testRegionOf(lang, rel string, file *syntax.File) testRegion {
	if testPath(rel) {
		return testRegion{all: true}
	}
	if lang != "rust" || file == nil {
		return testRegion{}
	}
	return testRegion{spans: rustTestItems(file, func(n *syntax.Node) [2]int {
		return [2]int{file.Position(n.Start).Line, file.Position(n.End).Line}
	})}
}

func (t testRegion) has(file *syntax.File, fn *model.Func) bool {
	if t.all {
		return true
	}
	line := file.Position(fn.Node.Start).Line
	for _, s := range t.spans {
		if line >= s[0] && line <= s[1] {
			return true
		}
	}
	return false
}

// nativeNames names each definition of a file as invariants name it:
// its qualified name, or, where the file defines that name more than once
// (C++ overloads), its name with its parameter list, which the front end
// matches (`Device::get_kernel(const std::string&)`).
func nativeNames(l model.Language, f *nativeFile) map[*model.Func]string {
	out := map[*model.Func]string{}
	count := map[string]int{}
	for _, fn := range f.funcs {
		count[strings.Join(fn.Path, "::")]++
	}
	for _, fn := range f.funcs {
		name := strings.Join(fn.Path, "::")
		if count[name] > 1 {
			var ps []string
			for _, p := range l.Params(f.file, fn) {
				ps = append(ps, joinTokens(p))
			}
			name += "(" + strings.Join(ps, ", ") + ")"
		}
		out[fn] = name
	}
	return out
}

// joinTokens writes a parameter's type tokens back as text, with a
// space only between two words (`const std::string&`).
func joinTokens(toks []string) string {
	var b strings.Builder
	for i, t := range toks {
		if t == "" {
			continue
		}
		if i > 0 && b.Len() > 0 && isWord(toks[i-1]) && isWord(t) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

func isWord(t string) bool {
	if t == "" {
		return false
	}
	c, d := t[len(t)-1], t[0]
	w := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return w(c) && w(d)
}

// declaresLocal reports whether a definition declares name as a local
// variable or a parameter: a Rust let or parameter pattern, a C or C++
// declarator of a declaration or a parameter. A write of such a name is
// no field's (owns is not proposed for it), and a removed call through
// it (`guard.unlock()`) is not proposed as forbid: the same code with
// another local's name would pass it.
func declaresLocal(file *syntax.File, fn *model.Func, name string) bool {
	found := false
	syntax.Walk(fn.Node, func(n *syntax.Node) bool {
		if found {
			return false
		}
		var decl []*syntax.Node
		switch n.Kind {
		case "let_declaration", "parameter", "closure_parameters", "for_expression":
			decl = append(decl, n.Child("pattern"))
			if n.Kind == "closure_parameters" {
				decl = append(decl, n.NamedChildren()...)
			}
		case "declaration", "parameter_declaration", "optional_parameter_declaration", "init_declarator", "for_range_loop":
			decl = append(decl, n.ChildrenOf("declarator")...)
		}
		for _, d := range decl {
			syntax.Walk(d, func(m *syntax.Node) bool {
				if len(m.Children) == 0 && m.Kind == "identifier" && file.Text(m) == name {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}
