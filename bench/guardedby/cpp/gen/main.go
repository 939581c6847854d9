// Command gen writes the guarded_by C++ corpus: one invariant per field
// that its own source annotates GUARDED_BY(...) or ABSL_GUARDED_BY(...)
// in the upstream trees of Debian source packages, picked by the corpus
// rule below. With -score it reads guardlint's findings and prints, per
// field, what was found, with a first classification of each finding by
// what its function's source shows (see score).
//
//	go run ./bench/guardedby/cpp/gen -src DIR -out OUT           # write OUT/originals.yaml
//	go run ./bench/guardedby/cpp/gen -src DIR -out OUT -score    # read OUT/originals.json
//
// The rule was written, with this program, before the corpus was first
// generated, and is not narrowed after seeing results: a field it picks
// that guardlint judges wrongly is a bug to fix or a limit documented
// with its reason.
//
// # The rule
//
// Packages: Debian bookworm's source packages leveldb (1.23-4), abseil
// (20220623.1-1+deb12u2) and grpc (1.51.1-3), unpacked under DIR (their
// upstream trees, each a directory of DIR). The first run had leveldb
// and abseil only, which hold 41 fields, fewer than the 60 the corpus
// needs: grpc was added then (widened, never narrowed).
//
// Files: every .h, .cc and .cpp file of the trees whose path below DIR
// contains neither "test" nor "benchmark", in any case; of grpc's tree,
// only those under src/cpp and src/core/lib (its C++ library and its
// core's common code; third_party holds copies of other projects,
// abseil among them, and src/core/ext its many transports and plugins).
//
// Fields: every line of those files, not a #define, on which an
// identifier F is followed by GUARDED_BY( or ABSL_GUARDED_BY( (not
// PT_GUARDED_BY, which guards what a pointer points to). The class is the
// name (last segment) of the innermost class or struct specifier around
// the line, as tree-sitter's C++ grammar reads the file, or, where it
// reads none (a macro it cannot expand before the class), the class or
// struct whose body is the innermost open brace by the text; the lock is the
// macro's argument, spaces removed. A line outside any class or struct
// (a variable of a namespace or a function) is counted and printed, not
// picked: it declares no field.
//
// Each field is an invariant `field: C::F`, `guarded_by: {lock: L}`,
// lang cpp, whose files are every file of the rule in the directory of
// the file that declares it, and which erases the macros of erase: the
// thread-safety annotations and the declaration macros of the three
// trees, which the grammar cannot read without their expansion, and
// (added after the third run, to read functions that failed to parse,
// never to drop a field) the format macros of <inttypes.h> that the
// code concatenates with string literals and grpc's statement macro
// GPR_UNREACHABLE_CODE. Nothing else is filtered.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// field is one picked field.
type field struct {
	ID, Class, Name, Lock, Dir, Decl string
	Line                             int
}

// erase are the macros every invariant erases: Clang's thread-safety
// annotations as the three trees spell them (bare and ABSL_), the
// declaration macros they put before or after declarations, grpc's
// GPR_UNREACHABLE_CODE(stmt), and the format macros of <inttypes.h>.
var erase = func() []string {
	var out []string
	for _, a := range []string{"GUARDED_BY", "PT_GUARDED_BY", "EXCLUSIVE_LOCKS_REQUIRED", "SHARED_LOCKS_REQUIRED",
		"LOCKS_EXCLUDED", "LOCK_RETURNED", "LOCKABLE", "SCOPED_LOCKABLE", "EXCLUSIVE_LOCK_FUNCTION", "SHARED_LOCK_FUNCTION",
		"UNLOCK_FUNCTION", "EXCLUSIVE_TRYLOCK_FUNCTION", "SHARED_TRYLOCK_FUNCTION", "NO_THREAD_SAFETY_ANALYSIS",
		"ASSERT_EXCLUSIVE_LOCK", "ASSERT_SHARED_LOCK", "ACQUIRED_AFTER", "ACQUIRED_BEFORE"} {
		out = append(out, a, "ABSL_"+a)
	}
	out = append(out, "ABSL_NAMESPACE_BEGIN", "ABSL_NAMESPACE_END", "ABSL_CONST_INIT", "ABSL_ATTRIBUTE_NOINLINE",
		"ABSL_ATTRIBUTE_ALWAYS_INLINE", "ABSL_MUST_USE_RESULT", "ABSL_DLL", "ABSL_ATTRIBUTE_UNUSED", "ABSL_DEPRECATED",
		"ABSL_ATTRIBUTE_COLD", "ABSL_ATTRIBUTE_HOT", "ABSL_ATTRIBUTE_WEAK", "ABSL_ATTRIBUTE_NORETURN",
		"GPR_ATTRIBUTE_NOINLINE", "GPR_ATTRIBUTE_WEAK", "GRPC_MUST_USE_RESULT", "GPR_NO_UNIQUE_ADDRESS", "GRPCAPI", "GRPCXX_DLL",
		"GPR_UNREACHABLE_CODE")
	// The format macros of <inttypes.h>, which expand to string literals
	// that the code concatenates with its own ("%" PRIdPTR " bytes").
	for _, conv := range []string{"d", "i", "o", "u", "x", "X"} {
		for _, w := range []string{"8", "16", "32", "64", "LEAST8", "LEAST16", "LEAST32", "LEAST64", "FAST8", "FAST16", "FAST32", "FAST64", "MAX", "PTR"} {
			out = append(out, "PRI"+conv+w)
			if conv != "X" {
				out = append(out, "SCN"+conv+w)
			}
		}
	}
	return out
}()

// annotated matches the field and the macro's argument, which may hold
// one level of parentheses (a call).
var annotated = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\s+(?:ABSL_)?GUARDED_BY\(([^()]*(?:\([^()]*\))?[^()]*)\)`)

func main() {
	src := flag.String("src", "", "the directory of the unpacked trees")
	out := flag.String("out", "", "the output directory")
	score := flag.Bool("score", false, "read OUT/originals.json and print the findings by field")
	flag.Parse()
	if *src == "" || *out == "" {
		log.Fatal("usage: gen -src DIR -out OUT [-score]")
	}
	fields, skipped := pick(*src)
	if *score {
		scoreRun(*src, *out, fields)
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("version: 1\ninvariants:\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "  - id: %s\n    why: annotated GUARDED_BY(%s) at %s:%d\n    lang: cpp\n    files:\n", f.ID, f.Lock, f.Decl, f.Line)
		for _, p := range dirFiles(*src, f.Dir) {
			fmt.Fprintf(&b, "      - %q\n", p)
		}
		fmt.Fprintf(&b, "    erase: [%s]\n    field: %s::%s\n    guarded_by:\n      lock: %q\n", strings.Join(erase, ", "), f.Class, f.Name, f.Lock)
	}
	if err := os.WriteFile(filepath.Join(*out, "originals.yaml"), []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("fields picked: %d\n", len(fields))
	fmt.Printf("annotated lines outside a class or struct (not fields): %d\n", len(skipped))
	for _, s := range skipped {
		fmt.Printf("  not a field: %s\n", s)
	}
}

// inRule reports whether a path below the source directory is a file of
// the rule.
func inRule(rel string) bool {
	low := strings.ToLower(rel)
	ext := filepath.Ext(low)
	if strings.HasPrefix(low, "grpc-") && !strings.Contains(low, "/src/cpp/") && !strings.Contains(low, "/src/core/lib/") {
		return false
	}
	return (ext == ".h" || ext == ".cc" || ext == ".cpp") && !strings.Contains(low, "test") && !strings.Contains(low, "benchmark")
}

// dirFiles lists the files of the rule in one directory of the trees, as
// absolute paths.
func dirFiles(src, dir string) []string {
	ents, err := os.ReadDir(filepath.Join(src, dir))
	if err != nil {
		log.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && inRule(filepath.Join(dir, e.Name())) {
			p, err := filepath.Abs(filepath.Join(src, dir, e.Name()))
			if err != nil {
				log.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// pick applies the rule.
func pick(src string) ([]field, []string) {
	var fields []field
	var skipped []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if !inRule(rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), "GUARDED_BY(") {
			return nil
		}
		f, err := syntax.Parse("cpp", p, data)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		off := 0
		for i, line := range strings.SplitAfter(string(data), "\n") {
			start := off
			off += len(line)
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			for _, m := range annotated.FindAllStringSubmatchIndex(line, -1) {
				name := line[m[2]:m[3]]
				lock := strings.ReplaceAll(line[m[4]:m[5]], " ", "")
				if strings.HasSuffix(line[:m[4]], "PT_GUARDED_BY(") {
					continue
				}
				class := classAt(f, start+m[2])
				if class == "" {
					class = classByBraces(string(data[:start+m[2]]))
				}
				if class == "" {
					skipped = append(skipped, fmt.Sprintf("%s:%d %s", rel, i+1, name))
					continue
				}
				fields = append(fields, field{Class: class, Name: name, Lock: lock, Dir: filepath.Dir(rel), Decl: rel, Line: i + 1})
			}
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	sort.Slice(fields, func(i, j int) bool {
		if fields[i].Decl != fields[j].Decl {
			return fields[i].Decl < fields[j].Decl
		}
		return fields[i].Line < fields[j].Line
	})
	for i := range fields {
		fields[i].ID = fmt.Sprintf("f%03d-%s-%s", i+1, fields[i].Class, strings.Trim(fields[i].Name, "_"))
	}
	return fields, skipped
}

// classAt returns the name of the innermost class or struct specifier
// with a body around offset off, or "".
func classAt(f *syntax.File, off int) string {
	name := ""
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		if n.Start > off || n.End <= off {
			return false
		}
		if (n.Kind == "class_specifier" || n.Kind == "struct_specifier") && n.Child("body") != nil && n.Child("name") != nil {
			toks := f.Tokens(n.Child("name"))
			name = toks[len(toks)-1]
		}
		return true
	})
	return name
}

// classHead matches the text before a class's or struct's opening brace.
var classHead = regexp.MustCompile(`\b(?:class|struct)\s+(?:[A-Z_]+(?:\([^)]*\))?\s+)*([A-Za-z_][A-Za-z0-9_]*)\s*(?:final\s*)?(?::[^{;]*)?$`)

// classByBraces finds the class or struct whose body is the innermost
// open brace at the end of text, by the text alone, when tree-sitter
// does not see the specifier (a macro before it that the grammar cannot
// read): line comments are dropped, and each `{` is a class's body when
// the text since the last `;`, `{` or `}` reads as a class head.
func classByBraces(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	var stack []string
	last := 0
	t := b.String()
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			name := ""
			if m := classHead.FindStringSubmatch(strings.TrimSpace(t[last:i])); m != nil {
				name = m[1]
			}
			stack = append(stack, name)
			last = i + 1
		case '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			last = i + 1
		case ';':
			last = i + 1
		}
	}
	if len(stack) == 0 {
		return ""
	}
	return stack[len(stack)-1]
}

// finding is one finding of guardlint's -json output.
type finding struct {
	ID      string `json:"id"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// guardWords are the guard idioms of the two trees that the front end
// does not read (absl::MutexLock and its reader and writer forms,
// absl's SpinLockHolder, Mutex::Lock and ReaderLock calls, grpc's
// gpr_mu_lock, low_level_alloc.cc's own ArenaLock, a TryLock() whose
// failure returns): a finding in a function whose source
// takes the field's lock with one of them is classified "guard not read".
var guardWords = []string{"MutexLock", "SpinLockHolder", "gpr_mu_lock", "ArenaLock", ".TryLock()", "ReaderMutexLock", "WriterMutexLock", "MutexLockMaybe", "ReleasableMutexLock", ".Lock()", "->Lock()", ".ReaderLock()", "->ReaderLock()", ".WriterLock()", "->WriterLock()", "LockSlow", "LockWhen", "ReaderLockWhen"}

// scoreRun prints the findings by field with a first classification.
func scoreRun(src, out string, fields []field) {
	data, err := os.ReadFile(filepath.Join(out, "originals.json"))
	if err != nil {
		log.Fatal(err)
	}
	var doc struct {
		Findings []finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		log.Fatal(err)
	}
	fs := doc.Findings
	by := map[string][]finding{}
	for _, f := range fs {
		by[f.ID] = append(by[f.ID], f)
	}
	classes := map[string]int{}
	clean := 0
	for _, fld := range fields {
		got := by[fld.ID]
		if len(got) == 0 {
			clean++
			fmt.Printf("%s: clean\n", fld.ID)
			continue
		}
		for _, f := range got {
			c := classify(f)
			classes[c]++
			fmt.Printf("%s: %s: %s:%d: %s\n", fld.ID, c, f.File, f.Line, f.Message)
		}
	}
	fmt.Printf("fields: %d, clean: %d, with findings: %d\n", len(fields), clean, len(fields)-clean)
	var keys []string
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("findings %s: %d\n", k, classes[k])
	}
}

// atLine finds the line of the access a call path ends at.
var atLine = regexp.MustCompile(` at line (\d+)`)

// inFunc finds the function a finding is in, whose callers would hold
// the lock: the one that touches the field ("held in NAME ("), the first
// of a call path ("(NAME -> "), or the one whose callers are not found
// ("ID: NAME reads"); never a callee of the path, whose annotation asks
// the finding's function to hold the lock.
var inFunc = regexp.MustCompile(`(?:held in |\(|: )(?:[A-Za-z0-9_]+::)*([A-Za-z0-9_]+)(?: \(| ->| reads | writes )`)

// qualifiedName finds the functions a finding names (the one that
// touches the field, those of its call path), qualified.
var qualifiedName = regexp.MustCompile(`(?:[A-Za-z0-9_]+::)+[A-Za-z0-9_]+`)

// declaredWith reports whether a file of dir declares or defines the
// function name with word among the four lines from its name: an
// annotation of the source (LOCKS_REQUIRED, UNLOCK_FUNCTION: its callers
// hold the lock; NO_THREAD_SAFETY_ANALYSIS: its accesses are unguarded
// by design), which guardlint does not read.
func declaredWith(dir, name, word string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if !strings.Contains(l, name+"(") {
				continue
			}
			end := min(i+4, len(lines))
			if strings.Contains(strings.Join(lines[i:end], " "), word) {
				return true
			}
		}
	}
	return false
}

// definition returns the text of the first out-of-line or in-class
// definition of a function in the files of dir (from the line that names
// it with `(` and opens a body, to the next line that closes one at its
// indentation), or "".
func definition(dir, qualified string) string {
	segs := strings.Split(qualified, "::")
	name := segs[len(segs)-1]
	if len(segs) >= 2 {
		name = segs[len(segs)-2] + "::" + name
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if !strings.Contains(l, name+"(") || strings.HasSuffix(strings.TrimSpace(l), ";") {
				continue
			}
			end := min(i+40, len(lines))
			for j := i + 1; j < end; j++ {
				if strings.HasPrefix(lines[j], "}") {
					end = j
					break
				}
			}
			return strings.Join(lines[i:end], "\n")
		}
	}
	return ""
}

// classify gives a finding a first class from the source of the
// functions it names: first their declarations' annotations (the code's
// own word that the callers hold the lock), then the guard idioms in their bodies
// (the lines from the finding, or from the access a call path ends at,
// back to the start of the function: the first earlier line that starts
// at column 0 with neither a brace nor a comment; and the definitions of
// the functions the path names), then an annotation that opts the
// function out of the analysis.
func classify(f finding) string {
	if strings.Contains(f.Message, "cannot verify") {
		return "cannot-verify"
	}
	data, err := os.ReadFile(f.File)
	if err != nil {
		return "unreadable"
	}
	lines := strings.Split(string(data), "\n")
	for _, m := range inFunc.FindAllStringSubmatch(f.Message, -1) {
		if declaredWith(filepath.Dir(f.File), m[1], "LOCKS_REQUIRED(") || declaredWith(filepath.Dir(f.File), m[1], "UNLOCK_FUNCTION(") ||
			strings.Contains(definition(filepath.Dir(f.File), m[1]), "AssertHeld()") {
			return "held-by-callers"
		}
	}
	// The finding's function, and for a call path the function of the
	// access ("at line N" of the same file, where the path's callee is).
	at := []int{f.Line}
	if m := atLine.FindStringSubmatch(f.Message); m != nil {
		var n int
		_, _ = fmt.Sscan(m[1], &n) // a digit string: the regexp matched it
		at = append(at, n)
	}
	for _, line := range at {
		if line < 1 || line > len(lines) {
			continue
		}
		start := line - 1
		for start > 0 && (lines[start] == "" || lines[start][0] == ' ' || lines[start][0] == '\t' || lines[start][0] == '}' || lines[start][0] == '{' || lines[start][0] == '/' || lines[start][0] == '#') {
			start--
		}
		body := strings.Join(lines[start:line], "\n")
		for _, w := range guardWords {
			if strings.Contains(body, w) {
				return "guard-not-read"
			}
		}
	}
	// The functions the finding names (its call path's) may be defined
	// in another file of the directory: their bodies, from their
	// definitions.
	for _, q := range qualifiedName.FindAllString(f.Message, -1) {
		if body := definition(filepath.Dir(f.File), q); body != "" {
			for _, w := range guardWords {
				if strings.Contains(body, w) {
					return "guard-not-read"
				}
			}
		}
	}
	for _, m := range inFunc.FindAllStringSubmatch(f.Message, -1) {
		if declaredWith(filepath.Dir(f.File), m[1], "NO_THREAD_SAFETY_ANALYSIS") {
			return "opted-out"
		}
	}
	return "review"
}
