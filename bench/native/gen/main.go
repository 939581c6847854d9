// Command gen writes guardlint's real C++ and Rust corpora: invariants on
// functions of the libstdc++ 12 and Boost 1.81 headers and of the Rust
// standard library and the crates Debian packages, picked by the corpus
// rule below, and the mutants of each picked function's guard. With
// -score it reads guardlint's findings on both and prints the rates.
//
//	go run ./bench/native/gen -pattern-packages       # the Debian packages to unpack for the pattern corpus
//	go run ./bench/native/gen -pattern-packages-newer # its suite, then the newer packages to unpack (rule version 2)
//	go run ./bench/native/gen -pattern-suite-third    # the suite of rule version 3
//	go run ./bench/native/gen -pattern-packages-third <Packages # NAME=VERSION of the packages rule version 3 takes from that suite's index
//	go run ./bench/native/gen -out DIR -pattern-crates CRATES  # write DIR/originals.yaml, DIR/mutants.yaml, DIR/mutants/
//	                                                  # (without -pattern-crates, the pattern corpus is left out)
//	go run ./bench/native/gen -score -out DIR         # read DIR/originals.json, DIR/mutants.json
//
// The corpus rule was written, with this program, before the corpus was
// first generated, and is not narrowed after seeing results: a function
// it picks that guardlint judges wrongly is a bug to fix in guardlint or
// a limit documented in docs/treesitter.md with its reason.
//
// # The files
//
// C++: every regular file under /usr/include/c++/12 (Debian
// libstdc++-12-dev) and /usr/include/boost (libboost1.81-dev) that holds
// one of the words lock_guard, unique_lock, scoped_lock or shared_lock,
// read as cpp with the defines and erased macros of cppDefines and
// cppErase (what a C++17 compiler with threads predefines, and the
// libstdc++ and Boost declaration macros the grammar cannot read without
// their expansion). Rust: every .rs file under
// /usr/lib/rustlib/src/rust/library (rust-src) and
// /usr/share/cargo/registry (the librust-*-dev crates installed, tokio
// and its dependencies among them) that holds `.lock()`, `.read()` or
// `.write()`, read as rust with no cfg option set.
//
// # The functions
//
// A function definition is a candidate when the front end finds it in
// its file under those settings (guardlint's own lookup, so that the
// invariant names it the way guardlint looks it up), the definition has
// no ERROR or MISSING node, every segment of its qualified name is an
// identifier (no operator), and it can be named alone in its file: by its
// qualified name, anchored at the top of the file (`::f`) when that is
// needed, or else by its name and parameter list, which no other
// definition of the file shares, names being matched as guardlint matches
// them (`A::f` names `ns::A::f`). Definitions that fail these are counted
// and printed, not picked. As for definitions, code of a body that the
// configuration does not compile (an #if arm not taken, a cfg that does
// not hold, as the front end reads them) is not part of the body below.
//
// A candidate is picked when its body (outside lambdas, closures and
// nested definitions) declares a guard, and the first guard G it declares
// in source order decides how:
//
//   - C++: a declaration of one variable NAME whose type's last name
//     segment (template arguments aside) is lock_guard, unique_lock,
//     scoped_lock or shared_lock, with constructor arguments in
//     parentheses or braces, none of which ends in defer_lock,
//     try_to_lock or adopt_lock. The lock M is the first argument's text;
//     the mode is shared for shared_lock, exclusive otherwise.
//   - Rust: a `let` binding an identifier NAME (with or without mut) to
//     RECV.lock(), RECV.read() or RECV.write() called without arguments,
//     followed by any number of .unwrap(), .expect(..) and `?`. M is
//     RECV's text; the mode is shared for read, exclusive otherwise.
//
// The release words of G are `NAME.unlock(`, `NAME.release(`,
// `NAME.swap(` and `std::move(NAME)` (C++), `drop(NAME)` (Rust).
//
//   - Body: G is the first statement of the body's outermost block, and
//     the body holds none of its release words. The invariant is hold,
//     lock M, in the mode.
//   - Around: any other picked guard. Its region is the statements that
//     follow G in G's own block, up to the first that holds one of its
//     release words. The operations are the last names of the callees of
//     the calls in the region (outside lambdas and closures), but not
//     NAME itself, not a name the body also calls outside the region, and
//     not a name a lambda or closure of the body calls.
//     A function without an operation left is not picked. The invariant
//     is requires, lock M, in the mode, on the operations, within the
//     function.
//
// # The mutants
//
// Each picked function gets, each in a copy of its file: G deleted; G
// made a temporary (C++ `TYPE{ARGS};`, Rust `VALUE;`); G moved into a
// block of its own (`{ G }`); for Rust, G's binding made `let _ =`; and G
// released right after it: `drop(NAME);` in Rust, `NAME.unlock();` for a
// C++ unique_lock or shared_lock (the others have no unlock), when a
// statement follows G in its block (with none, releasing it there is
// what the end of the block does: the mutant would be the original).
// A Body function's guard is also given up without unlocking right after
// it: `std::mem::forget(NAME);` in Rust, and
// `NAME.release();` for a C++ unique_lock or shared_lock: the function
// returns with the lock held. A C++ Body function's guard is also
// replaced by an explicit lock call of its mutex with no unlock after it
// (`M.lock();`, `M.lock_shared();` in shared mode, from the guard's first
// argument: `(*M).lock();` for `*M`, `M.lock();` for `&M`): the revert of a
// function that locks explicitly whose unlock call is deleted, which
// returns with the lock held on every path ("unlock_deleted", added after
// the rule's first run as a mutant kind; the picked functions are the
// rule's). The run also lists the picked C++ functions that lock a mutex
// by an explicit lock call followed by its unlock. Mutants are not compiled: in Rust, a guard used by name afterwards
// makes most of them fail to compile, and they are counted all the same.
//
// A third corpus, of Rust guards bound by a pattern (`if let`, `while
// let`, `let ... else`, `match`), has its rule in pattern.go; its
// invariants and mutants are written and scored with the others, under
// the name rustpattern.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/cfamily"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/rustlang"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Roots of the corpora, from the Debian packages CI installs.
var (
	cppRoots  = []string{"/usr/include/c++/12", "/usr/include/boost"}
	rustRoots = []string{"/usr/lib/rustlib/src/rust/library", "/usr/share/cargo/registry"}
)

// cppDefines are what a C++17 compiler with POSIX threads predefines, as
// libstdc++ and Boost test them.
var cppDefines = map[string]string{
	"__cplusplus": "201703", "__GNUC__": "12", "_GLIBCXX_HAS_GTHREADS": "1", "__GTHREADS": "1",
	"_GLIBCXX_USE_CXX11_ABI": "1", "_REENTRANT": "1", "__linux__": "1", "__x86_64__": "1",
	"BOOST_HAS_THREADS": "1",
}

// cppErase are the declaration macros of libstdc++ and Boost that the
// grammar cannot read without their expansion.
var cppErase = []string{
	"_GLIBCXX_NODISCARD", "_GLIBCXX20_CONSTEXPR", "_GLIBCXX17_CONSTEXPR", "_GLIBCXX14_CONSTEXPR",
	"_GLIBCXX_CONSTEXPR", "_GLIBCXX_NOEXCEPT", "_GLIBCXX_USE_NOEXCEPT", "_GLIBCXX_NOEXCEPT_IF", "_GLIBCXX_THROW",
	"_GLIBCXX_VISIBILITY", "_GLIBCXX_ALWAYS_INLINE", "_GLIBCXX_NORETURN", "_GLIBCXX_DEPRECATED",
	"_GLIBCXX_DEPRECATED_SUGGEST", "_GLIBCXX_ABI_TAG_CXX11", "_GLIBCXX_BEGIN_NAMESPACE_VERSION",
	"_GLIBCXX_END_NAMESPACE_VERSION", "_GLIBCXX_BEGIN_NAMESPACE_CXX11", "_GLIBCXX_END_NAMESPACE_CXX11",
	"_GLIBCXX_PURE", "_GLIBCXX_CONST", "_GLIBCXX_TXN_SAFE", "_GLIBCXX_TXN_SAFE_DYN",
	"BOOST_FORCEINLINE", "BOOST_NOINLINE", "BOOST_NOEXCEPT", "BOOST_NOEXCEPT_OR_NOTHROW", "BOOST_NOEXCEPT_IF",
	"BOOST_CONSTEXPR", "BOOST_CXX14_CONSTEXPR", "BOOST_ASIO_DECL", "BOOST_ASIO_NODISCARD", "BOOST_SYMBOL_VISIBLE",
	"BOOST_THREAD_DECL", "BOOST_LOG_API", "BOOST_OVERRIDE", "BOOST_FINAL", "BOOST_ATTRIBUTE_NODISCARD",
	"BOOST_ATTRIBUTE_UNUSED", "BOOST_NORETURN", "BOOST_FIBERS_DECL", "BOOST_CONTEXT_DECL",
}

// guardTypes are the standard guard types, by the last segment of their
// name, and the mode each locks in.
var guardTypes = map[string]invariants.LockMode{
	"lock_guard": invariants.Exclusive, "unique_lock": invariants.Exclusive,
	"scoped_lock": invariants.Exclusive, "shared_lock": invariants.Shared,
}

// rustLocks are the lock methods whose result is the guard.
var rustLocks = map[string]invariants.LockMode{"lock": invariants.Exclusive, "write": invariants.Exclusive, "read": invariants.Shared}

// pick is one picked function.
type pick struct {
	id, lang, file, name string
	set                  string // the corpus: cpp, rust or rustpattern
	line                 int
	body                 bool // class Body: hold; otherwise requires within
	lock                 string
	mode                 invariants.LockMode
	ops                  []string
	guard                guard
	binding              *binding // rustpattern: how the guard is bound
	muts                 []mutant // rustpattern: the mutants, written at the scan
}

// span is a statement's bytes in its file.
type span struct{ start, end int }

// guard is the first guard a picked function declares.
type guard struct {
	start, end int    // the declaration's statement in the file
	text       string // its source
	name       string
	typ        string   // C++: the type's text
	args       []string // C++: the constructor arguments
	value      string   // Rust: the bound expression
	unlockable bool     // C++: unique_lock or shared_lock
	last       bool     // no statement follows it in its block
}

// counts are what the scan saw.
type counts struct {
	files, unparsed, unnamed, guards, noOps int
	// not lists the definitions with a guard that are not picked, and why.
	not []string
	// explicit lists the picked C++ functions that also lock a mutex by
	// an explicit lock call followed by its unlock.
	explicit []string
}

func main() {
	out := flag.String("out", "", "the directory to write the corpus to, or to score")
	score := flag.Bool("score", false, "read DIR/originals.json and DIR/mutants.json and print the rates")
	crates := flag.String("pattern-crates", "", "the directory the packages of -pattern-packages are unpacked into")
	listPackages := flag.Bool("pattern-packages", false, "print the Debian packages whose crates widen the pattern corpus")
	listNewer := flag.Bool("pattern-packages-newer", false, "print the Debian suite, then the packages of that suite, whose crates widen the pattern corpus (rule version 2)")
	listThirdSuite := flag.Bool("pattern-suite-third", false, "print the Debian suite of rule version 3")
	listThird := flag.Bool("pattern-packages-third", false, "read that suite's Packages index on standard input and print NAME=VERSION of each package rule version 3 takes")
	flag.Parse()
	if *listThirdSuite {
		fmt.Println(thirdSuite)
		return
	}
	if *listThird {
		index, err := io.ReadAll(os.Stdin)
		if err != nil {
			fail(err)
		}
		names := thirdPackages(string(index))
		if len(names) == 0 {
			fail(fmt.Errorf("-pattern-packages-third: the index on standard input names no package of the rule"))
		}
		fmt.Println(strings.Join(names, "\n"))
		return
	}
	if *listPackages {
		fmt.Println(strings.Join(patternPackages, "\n"))
		return
	}
	if *listNewer {
		fmt.Println(strings.Join(append([]string{newerSuite}, newerPackages...), "\n"))
		return
	}
	if *out == "" {
		fail(fmt.Errorf("-out DIR is required"))
	}
	if *score {
		if err := scoreRun(*out); err != nil {
			fail(err)
		}
		return
	}
	var picks []pick
	var c counts
	cpp, err := scan("cpp", "cpp", cppRoots, []string{"lock_guard", "unique_lock", "scoped_lock", "shared_lock"}, &c)
	if err != nil {
		fail(err)
	}
	rust, err := scan("rust", "rust", rustRoots, []string{".lock()", ".read()", ".write()"}, &c)
	if err != nil {
		fail(err)
	}
	// Without its packages the pattern corpus is not the rule's: it is
	// left out, and said so (bench/prove/corpus proves the other two).
	var cp counts
	var patterns []pick
	if *crates != "" {
		patterns, err = scan("rust", "rustpattern", append(slices.Clone(rustRoots), *crates), patternWords, &cp)
		if err != nil {
			fail(err)
		}
	}
	picks = slices.Concat(cpp, rust, patterns)
	if err := write(*out, picks); err != nil {
		fail(err)
	}
	nc, nr := 0, 0
	for _, p := range picks {
		switch p.set {
		case "cpp":
			nc++
		case "rust":
			nr++
		}
	}
	if err := os.WriteFile(filepath.Join(*out, "not-picked.txt"), []byte(strings.Join(c.not, "\n")+"\n"), 0o644); err != nil {
		fail(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "not-picked-rustpattern.txt"), []byte(strings.Join(cp.not, "\n")+"\n"), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("scanned %d files, %d definitions with a guard; not picked (listed in not-picked.txt): %d that do not parse, %d that cannot be named alone, %d around a guard with no operation\n",
		c.files, c.guards, c.unparsed, c.unnamed, c.noOps)
	fmt.Printf("picked %d C++ and %d Rust functions\n", nc, nr)
	if *crates == "" {
		fmt.Println("rustpattern: not written (no -pattern-crates)")
	} else {
		fmt.Printf("rustpattern: scanned %d files, %d definitions with a guard bound by a pattern; not picked (listed in not-picked-rustpattern.txt): %d that do not parse, %d that cannot be named alone, %d around a guard with no operation; picked %d\n",
			cp.files, cp.guards, cp.unparsed, cp.unnamed, cp.noOps, len(patterns))
	}
	fmt.Printf("picked C++ functions that also lock a mutex explicitly and unlock it: %d\n", len(c.explicit))
	for _, x := range c.explicit {
		fmt.Println("    " + x)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(2)
}

// scan walks the roots and picks the functions of every file that holds
// one of the words.
func scan(lang, set string, roots, words []string, c *counts) ([]pick, error) {
	var files []string
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			return nil, fmt.Errorf("%s: %w (install the corpus packages: see bench/native/run)", root, err)
		}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || (lang == "rust" && !strings.HasSuffix(p, ".rs")) {
				return err
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	var out []pick
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if !containsAny(string(src), words) {
			continue
		}
		c.files++
		picks, err := scanFile(lang, set, p, src, c)
		if err != nil {
			return nil, err
		}
		out = append(out, picks...)
	}
	return out, nil
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// front is what the generator uses of guardlint: the lookup of function
// definitions and their parameters, so that invariants name functions as
// guardlint finds them.
type front interface {
	Functions(f *syntax.File, c *model.Config) []*model.Func
	Params(f *syntax.File, fn *model.Func) [][]string
	ParamPattern(src string) ([][]string, error)
	Liveness(f *syntax.File, fn *model.Func, c *model.Config) func(n *syntax.Node) core.Liveness
	Hold(f *syntax.File, fn *model.Func, c *model.Config) *model.Hold
}

// compiled reports whether the configuration compiles a node of a body:
// it is in no #if arm that is not taken and under no cfg that does not
// hold, as the front end reads them.
func compiled(live func(n *syntax.Node) core.Liveness, n *syntax.Node) bool {
	d := live(n).Dead
	return !strings.Contains(d, "which is not compiled") && !strings.Contains(d, "which does not hold")
}

// scanFile picks the functions of one file for a corpus.
func scanFile(lang, set, path string, src []byte, c *counts) ([]pick, error) {
	var fe front
	conf := &model.Config{}
	parsed := src
	if lang == "cpp" {
		fe = cfamily.Language{Lang: "cpp"}
		for k, v := range cppDefines {
			conf.Defines = append(conf.Defines, invariants.Define{Name: k, Values: []string{v}})
		}
		parsed = syntax.EraseMacros(src, cppErase) // as the invariants' erase does
	} else {
		fe = rustlang.Language{}
	}
	f, err := syntax.Parse(syntax.Lang(lang), path, parsed)
	if err != nil {
		return nil, err
	}
	f.Src = src
	defs := fe.Functions(f, conf)
	var out []pick
	for _, d := range defs {
		var g *guard
		var mode invariants.LockMode
		var lock string
		var stmt *syntax.Node
		var b *binding
		live := fe.Liveness(f, d, conf)
		switch set {
		case "cpp":
			g, lock, mode, stmt = cppGuard(f, d.Body, live)
		case "rust":
			g, lock, mode, stmt = rustGuard(f, d.Body, live)
		default:
			g, lock, mode, b = rustPatternGuard(f, d.Body, live)
			if b != nil {
				stmt = b.stmt
			}
		}
		if g == nil {
			continue
		}
		c.guards++
		at := fmt.Sprintf("%s:%d %s", path, f.Position(d.Name.Start).Line, strings.Join(d.Path, "::"))
		if bad := syntax.FirstBad(d.Node); bad != nil {
			c.unparsed++
			c.not = append(c.not, fmt.Sprintf("%s: does not parse (%s at line %d)", at, bad.Kind, f.Position(bad.Start).Line))
			continue
		}
		name, ok := nameOf(fe, f, d, defs)
		if !ok {
			c.unnamed++
			c.not = append(c.not, at+": cannot be named alone")
			continue
		}
		p := pick{lang: lang, set: set, file: path, name: name, line: f.Position(d.Name.Start).Line, lock: lock, mode: mode, binding: b}
		first := firstStatement(d.Body) == stmt && !releases(f, d.Body, g.name, lang)
		region := func() []*syntax.Node { return followers(f, stmt, g.name, lang) }
		if b != nil {
			first = first && b.form == "let_else"
			if b.form != "let_else" {
				region = func() []*syntax.Node { return regionStatements(f, b, g.name) }
			}
		}
		if b == nil || b.form == "let_else" {
			g.last = lastInBlock(stmt)
		}
		p.guard = *g
		if first {
			p.body = true
		} else {
			p.ops = operations(f, d.Body, region(), g.name, live)
			if len(p.ops) == 0 {
				c.noOps++
				c.not = append(c.not, at+": no operation around the guard")
				continue
			}
		}
		if b != nil {
			p.muts = patternMutants(f, p)
		}
		if lang == "cpp" {
			if _, x := explicitUnlocks(fe.Hold(f, d, conf)); x != "" {
				c.explicit = append(c.explicit, fmt.Sprintf("%s: locks %s explicitly", at, x))
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// explicitUnlocks finds the first live explicit lock call of a body that
// takes its mutex (`mu.lock();`, `pthread_mutex_lock(&mu);`, as the front
// end reads them), and returns the unlock calls of that mutex after it
// that are statements of their own, with the mutex's text; nil when
// there is none.
func explicitUnlocks(h *model.Hold) ([]span, string) {
	for _, g := range h.All {
		if !g.LockCall || !g.Live() || !g.Takes || g.Scope == nil || g.NotHeld != "" {
			continue
		}
		var out []span
		for _, r := range h.Releases {
			st := r.Node.Parent
			if r.Guard != g.Name || r.Node.Start < g.Node.End || st == nil || st.Kind != "expression_statement" || len(st.NamedChildren()) != 1 {
				continue
			}
			out = append(out, span{st.Start, st.End})
		}
		if out != nil {
			return out, joinTokens(g.Lock[0])
		}
	}
	return nil, ""
}

// signature is a definition's name with its parameter types.
func signature(fe front, f *syntax.File, d *model.Func) string {
	var ps []string
	for _, p := range fe.Params(f, d) {
		ps = append(ps, joinTokens(p))
	}
	return strings.Join(d.Path, "::") + "(" + strings.Join(ps, ", ") + ")"
}

// nameOf returns how an invariant names a definition alone in its file,
// matched as guardlint matches names (model.Func.Matches): its qualified
// name, the same anchored at the top of the file, or its name with its
// parameter list; false when none is unique or a segment is no
// identifier.
func nameOf(fe front, f *syntax.File, d *model.Func, defs []*model.Func) (string, bool) {
	for _, s := range d.Path {
		if !isIdent(strings.TrimPrefix(s, "~")) {
			return "", false
		}
	}
	count := func(scoped []string, params [][]string) int {
		n := 0
		for _, o := range defs {
			if o.Matches(scoped) && (params == nil || model.SameParams(fe.Params(f, o), params)) {
				n++
			}
		}
		return n
	}
	name := strings.Join(d.Path, "::")
	if count(d.Path, nil) == 1 {
		return name, true
	}
	if count(append([]string{""}, d.Path...), nil) == 1 {
		return "::" + name, true
	}
	params := fe.Params(f, d)
	if count(d.Path, params) != 1 {
		return "", false
	}
	sig := signature(fe, f, d)
	back, err := fe.ParamPattern(sig[len(name):])
	if err != nil || !model.SameParams(back, params) {
		return "", false
	}
	return sig, true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// joinTokens writes tokens back as source: a space between two words.
func joinTokens(toks []string) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && isWordByte(toks[i-1][len(toks[i-1])-1]) && isWordByte(t[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// nested are the nodes whose code is not the function's own statements:
// lambdas, closures and nested definitions.
var nested = map[string]bool{
	"lambda_expression": true, "closure_expression": true, "function_definition": true, "class_specifier": true,
	"struct_specifier": true, "union_specifier": true, "function_item": true, "impl_item": true, "trait_item": true,
	"mod_item": true, "macro_invocation": true,
}

// walk visits the nodes of body in source order, not entering nested
// code; visit returns false to stop.
func walk(body *syntax.Node, visit func(n *syntax.Node) bool) {
	var rec func(n *syntax.Node) bool
	rec = func(n *syntax.Node) bool {
		if n != body && nested[n.Kind] {
			return true
		}
		if !visit(n) {
			return false
		}
		for _, c := range n.Children {
			if !rec(c) {
				return false
			}
		}
		return true
	}
	rec(body)
}

// cppGuard finds the first guard declaration of a C++ body.
func cppGuard(f *syntax.File, body *syntax.Node, live func(*syntax.Node) core.Liveness) (*guard, string, invariants.LockMode, *syntax.Node) {
	var g *guard
	var lock string
	var mode invariants.LockMode
	var stmt *syntax.Node
	walk(body, func(n *syntax.Node) bool {
		if n.Kind != "declaration" || !compiled(live, n) {
			return true
		}
		typ := n.Child("type")
		m, ok := guardTypes[lastName(f, typ)]
		ds := n.ChildrenOf("declarator")
		if !ok || len(ds) != 1 {
			return true
		}
		d := ds[0]
		name := d.Child("declarator")
		var args []*syntax.Node
		switch d.Kind {
		case "function_declarator":
			args = d.Child("parameters").NamedChildren()
		case "init_declarator":
			if v := d.Child("value"); v != nil && (v.Kind == "argument_list" || v.Kind == "initializer_list") {
				args = v.NamedChildren()
			}
		}
		if name == nil || name.Kind != "identifier" || len(args) == 0 {
			return true
		}
		var texts []string
		for _, a := range args {
			t := strings.Join(strings.Fields(f.Text(a)), " ")
			if strings.HasSuffix(t, "defer_lock") || strings.HasSuffix(t, "try_to_lock") || strings.HasSuffix(t, "adopt_lock") {
				return true
			}
			texts = append(texts, t)
		}
		last := lastName(f, typ)
		g = &guard{start: n.Start, end: n.End, text: f.Text(n), name: f.Text(name), typ: f.Text(typ), args: texts,
			unlockable: last == "unique_lock" || last == "shared_lock"}
		lock, mode, stmt = texts[0], m, n
		return false
	})
	return g, lock, mode, stmt
}

// lastName is the last identifier of a type's name, template arguments
// aside: std::lock_guard<std::mutex> is lock_guard.
func lastName(f *syntax.File, t *syntax.Node) string {
	for t != nil {
		switch t.Kind {
		case "qualified_identifier":
			t = t.Child("name")
		case "template_type":
			t = t.Child("name")
		case "type_identifier", "identifier":
			return f.Text(t)
		default:
			return ""
		}
	}
	return ""
}

// rustGuard finds the first guard binding of a Rust body.
func rustGuard(f *syntax.File, body *syntax.Node, live func(*syntax.Node) core.Liveness) (*guard, string, invariants.LockMode, *syntax.Node) {
	var g *guard
	var lock string
	var mode invariants.LockMode
	var stmt *syntax.Node
	walk(body, func(n *syntax.Node) bool {
		if n.Kind != "let_declaration" || !compiled(live, n) {
			return true
		}
		pat, v := n.Child("pattern"), n.Child("value")
		if pat == nil || pat.Kind != "identifier" || v == nil {
			return true
		}
		recv, m, ok := rustLockCalls.find(f, v)
		if !ok {
			return true
		}
		g = &guard{start: n.Start, end: n.End, text: f.Text(n), name: f.Text(pat), value: f.Text(v)}
		lock, mode, stmt = strings.Join(strings.Fields(f.Text(recv)), " "), m, n
		return false
	})
	return g, lock, mode, stmt
}

// lockCalls is what a corpus rule takes for a lock call in Rust: one of
// the methods of locks, with no argument, under any of the methods of
// wrappers (unwrap, expect, ...), `?`, and `.await` where await is set.
// Each rule names its own in its comment, written before its first run.
type lockCalls struct {
	locks    map[string]invariants.LockMode
	wrappers []string
	await    bool
}

// rustLockCalls are the main Rust rule's: RECV.lock(), .read(), .write()
// under unwrap, expect and `?`.
var rustLockCalls = lockCalls{locks: rustLocks, wrappers: []string{"unwrap", "expect"}}

// find recognises such a call at e and returns its receiver and mode.
func (lc lockCalls) find(f *syntax.File, e *syntax.Node) (*syntax.Node, invariants.LockMode, bool) {
	for e != nil {
		switch e.Kind {
		case "try_expression", "await_expression":
			kids := e.NamedChildren()
			if len(kids) != 1 || (e.Kind == "await_expression" && !lc.await) {
				return nil, "", false
			}
			e = kids[0]
			continue
		case "call_expression":
			fn := e.Child("function")
			if fn == nil || fn.Kind != "field_expression" {
				return nil, "", false
			}
			method := f.Text(fn.Child("field"))
			if m, ok := lc.locks[method]; ok && len(e.Child("arguments").NamedChildren()) == 0 {
				return fn.Child("value"), m, true
			}
			if slices.Contains(lc.wrappers, method) {
				e = fn.Child("value")
				continue
			}
		}
		return nil, "", false
	}
	return nil, "", false
}

// firstStatement is the first named statement of a body.
func firstStatement(body *syntax.Node) *syntax.Node {
	for _, c := range body.Children {
		if c.Named && c.Kind != "comment" && c.Kind != "line_comment" && c.Kind != "block_comment" {
			return c
		}
	}
	return nil
}

// releaseWords are the texts that release or give away a guard.
func releaseWords(name, lang string) []string {
	if lang == "rust" {
		return []string{"drop(" + name + ")"}
	}
	return []string{name + ".unlock(", name + ".release(", name + ".swap(", "std::move(" + name + ")"}
}

// releases reports whether a body holds one of a guard's release words.
func releases(f *syntax.File, body *syntax.Node, name, lang string) bool {
	text := strings.Join(strings.Fields(f.Text(body)), "")
	for _, w := range releaseWords(name, lang) {
		if strings.Contains(text, strings.ReplaceAll(w, " ", "")) {
			return true
		}
	}
	return false
}

// followers are the statements that follow a guard's statement in its
// block, up to the first that holds one of its release words.
func followers(f *syntax.File, stmt *syntax.Node, name, lang string) []*syntax.Node {
	block := stmt.Parent
	var region []*syntax.Node
	after := false
	for _, s := range block.Children {
		if s == stmt {
			after = true
			continue
		}
		if !after || !s.Named {
			continue
		}
		text := strings.Join(strings.Fields(f.Text(s)), "")
		stop := false
		for _, w := range releaseWords(name, lang) {
			if strings.Contains(text, strings.ReplaceAll(w, " ", "")) {
				stop = true
			}
		}
		if stop {
			break
		}
		region = append(region, s)
	}
	return region
}

// operations are the callees of the guard's region that the body calls
// nowhere else.
func operations(f *syntax.File, body *syntax.Node, region []*syntax.Node, name string, live func(*syntax.Node) core.Liveness) []string {
	inRegion := func(n *syntax.Node) bool {
		for _, s := range region {
			if s.Start <= n.Start && n.End <= s.End {
				return true
			}
		}
		return false
	}
	in, out := map[string]bool{}, map[string]bool{}
	walk(body, func(n *syntax.Node) bool {
		if n.Kind != "call_expression" {
			return true
		}
		callee := calleeName(f, n.Child("function"))
		if callee == "" || callee == name || !compiled(live, n) {
			return true
		}
		if inRegion(n) {
			in[callee] = true
		} else {
			out[callee] = true
		}
		return true
	})
	// A name called in a lambda or closure of the body is no operation.
	var inNested func(n *syntax.Node, deep bool)
	inNested = func(n *syntax.Node, deep bool) {
		switch n.Kind {
		case "lambda_expression", "closure_expression":
			deep = true
		case "function_definition", "function_item", "impl_item", "trait_item", "mod_item":
			if n != body {
				return
			}
		}
		if deep && n.Kind == "call_expression" {
			out[calleeName(f, n.Child("function"))] = true
		}
		for _, c := range n.Children {
			inNested(c, deep)
		}
	}
	inNested(body, false)
	var ops []string
	for c := range in {
		if !out[c] {
			ops = append(ops, c)
		}
	}
	sort.Strings(ops)
	return ops
}

// calleeName is the last identifier of a callee, template arguments
// aside.
func calleeName(f *syntax.File, fn *syntax.Node) string {
	for fn != nil {
		switch fn.Kind {
		case "identifier", "field_identifier":
			return f.Text(fn)
		case "qualified_identifier", "scoped_identifier":
			fn = fn.Child("name")
		case "field_expression":
			fn = fn.Child("field")
		case "template_function", "generic_function":
			if n := fn.Child("name"); n != nil {
				fn = n
			} else {
				fn = fn.Child("function")
			}
		default:
			return ""
		}
	}
	return ""
}

// mutant is one rewrite of a picked function's guard.
type mutant struct {
	op, text string
}

// mutants lists a pick's mutants: the replacement of its guard statement.
func mutants(p pick) []mutant {
	if p.binding != nil {
		return p.muts
	}
	g := p.guard
	out := []mutant{{"deleted", ""}, {"nested", "{ " + g.text + " }"}}
	if p.lang == "cpp" {
		out = append(out, mutant{"temporary", g.typ + "{" + strings.Join(g.args, ", ") + "};"})
		if g.unlockable && !g.last {
			out = append(out, mutant{"dropped", g.text + " " + g.name + ".unlock();"})
		}
		if g.unlockable && p.body {
			out = append(out, mutant{"forgotten", g.text + " " + g.name + ".release();"})
		}
		if p.body {
			out = append(out, mutant{"unlock_deleted", lockCall(g.args[0], p.mode) + ";"})
		}
		return out
	}
	out = append(out, mutant{"temporary", g.value + ";"}, mutant{"let_", "let _ = " + g.value + ";"})
	if !g.last {
		out = append(out, mutant{"dropped", g.text + " drop(" + g.name + ");"})
	}
	if p.body {
		out = append(out, mutant{"forgotten", g.text + " std::mem::forget(" + g.name + ");"})
	}
	return out
}

// lockCall is the explicit lock call of a guard's mutex, written from the
// guard's argument: `M.lock()` (`M.lock_shared()` in shared mode),
// `(*M).lock()` for a dereference, `M.lock()` for an address `&M`.
func lockCall(arg string, mode invariants.LockMode) string {
	method := "lock"
	if mode == invariants.Shared {
		method = "lock_shared"
	}
	switch {
	case strings.HasPrefix(arg, "*"):
		return "(" + arg + ")." + method + "()"
	case strings.HasPrefix(arg, "&"):
		return strings.TrimSpace(arg[1:]) + "." + method + "()"
	}
	return arg + "." + method + "()"
}

// lastInBlock reports whether no named statement follows n in its block.
func lastInBlock(n *syntax.Node) bool {
	after := false
	for _, s := range n.Parent.Children {
		switch {
		case s == n:
			after = true
		case after && s.Named && s.Kind != "comment" && s.Kind != "line_comment" && s.Kind != "block_comment":
			return false
		}
	}
	return true
}

// write writes the corpus: the invariants on the original files, and the
// mutants' files with an invariant each.
func write(dir string, picks []pick) error {
	if err := os.MkdirAll(filepath.Join(dir, "mutants"), 0o755); err != nil {
		return err
	}
	var orig, mut strings.Builder
	orig.WriteString("version: 1\ninvariants:\n")
	mut.WriteString("version: 1\ninvariants:\n")
	var manifest strings.Builder
	srcs := map[string][]byte{}
	for i, p := range picks {
		p.id = fmt.Sprintf("%s-%04d", p.set, i)
		orig.WriteString(invariant(p, p.id, p.file))
		src, ok := srcs[p.file]
		if !ok {
			var err error
			if src, err = os.ReadFile(p.file); err != nil {
				return err
			}
			srcs[p.file] = src
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%s:%d\t%s\n", p.id, map[bool]string{true: "body", false: "around"}[p.body], p.file, p.line, p.name)
		for _, m := range mutants(p) {
			id := p.id + "." + m.op
			// Each mutant keeps its file's name, in a directory named by
			// its invariant.
			path := filepath.Join(dir, "mutants", id, filepath.Base(p.file))
			text := string(src[:p.guard.start]) + m.text + string(src[p.guard.end:])
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				return err
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return err
			}
			mut.WriteString(invariant(p, id, abs))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "originals.yaml"), []byte(orig.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "mutants.yaml"), []byte(mut.String()), 0o644)
}

// invariant writes one invariant of a pick, on a file.
func invariant(p pick, id, file string) string {
	var b strings.Builder
	q := func(s string) string {
		j, _ := json.Marshal(s)
		return string(j)
	}
	fmt.Fprintf(&b, "  - id: %s\n    why: %s\n    lang: %s\n    files: %s\n", id, q(fmt.Sprintf("the corpus rule picks %s at %s:%d", p.name, p.file, p.line)), p.lang, q(file))
	if p.lang == "cpp" {
		var keys []string
		for k := range cppDefines {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("    defines: {")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", k, cppDefines[k])
		}
		b.WriteString("}\n    erase: [" + strings.Join(cppErase, ", ") + "]\n")
	}
	if p.body {
		fmt.Fprintf(&b, "    function: %s\n    hold: {lock: %s, mode: %s}\n", q(p.name), q(p.lock), p.mode)
		return b.String()
	}
	var ops []string
	for _, o := range p.ops {
		ops = append(ops, q(o))
	}
	fmt.Fprintf(&b, "    functions: [%s]\n    requires: {lock: %s, mode: %s, within: [%s]}\n", strings.Join(ops, ", "), q(p.lock), p.mode, q(p.name))
	return b.String()
}

// finding is what the generator reads of guardlint's -json output.
type finding struct {
	ID      string `json:"id"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// readFindings reads a -json document.
func readFindings(path string) (map[string][]finding, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Findings []finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string][]finding{}
	for _, f := range doc.Findings {
		out[f.ID] = append(out[f.ID], f)
	}
	return out, nil
}

// scoreRun prints, per language, the functions reported on the original
// code (false alarms) with their findings, and the mutants no finding of
// their invariant flags (missed), with the two rates; it fails when there
// is either.
func scoreRun(dir string) error {
	orig, err := readFindings(filepath.Join(dir, "originals.json"))
	if err != nil {
		return err
	}
	mut, err := readFindings(filepath.Join(dir, "mutants.json"))
	if err != nil {
		return err
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		return err
	}
	mutantFiles, err := filepath.Glob(filepath.Join(dir, "mutants", "*"))
	if err != nil {
		return err
	}
	type tally struct{ fns, body, alarms, mutants, missed int }
	byLang := map[string]*tally{"cpp": {}, "rust": {}, "rustpattern": {}}
	for _, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		cols := strings.Split(line, "\t")
		id, class := cols[0], cols[1]
		t := byLang[strings.SplitN(id, "-", 2)[0]]
		t.fns++
		if class == "body" {
			t.body++
		}
		if fs := orig[id]; len(fs) > 0 {
			t.alarms++
			fmt.Printf("false alarm: %s %s %s %s\n", id, class, cols[2], cols[3])
			for _, f := range fs {
				fmt.Printf("    %s:%d: %s\n", f.File, f.Line, f.Message)
			}
		}
	}
	for _, p := range mutantFiles {
		id := filepath.Base(p)
		t := byLang[strings.SplitN(id, "-", 2)[0]]
		t.mutants++
		if len(mut[id]) == 0 {
			t.missed++
			fmt.Printf("missed: %s (%s)\n", id, p)
		}
	}
	bad := false
	for _, lang := range []string{"cpp", "rust", "rustpattern"} {
		t := byLang[lang]
		fmt.Printf("%s: %d functions (%d hold the lock for the body, %d around their accesses): %d reported on the original code; %d mutants: %d flagged, %d missed\n",
			lang, t.fns, t.body, t.fns-t.body, t.alarms, t.mutants, t.mutants-t.missed, t.missed)
		bad = bad || t.alarms > 0 || t.missed > 0
	}
	if bad {
		return fmt.Errorf("false alarms or missed mutants (above)")
	}
	return nil
}
