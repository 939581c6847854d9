package nativecheck_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/suppress"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Inputs built to hurt: each must end, in bounded time and memory, with
// the findings of a normal run or a finding that says why the file cannot
// be verified. Their figures are in docs/reliability.md, from the
// benchmarks in hostile_bench_test.go, which build the same inputs.

// checkTree writes files (path relative to a new directory: content) and
// an invariants file, and checks it.
func checkTree(tb testing.TB, files map[string][]byte, yaml string) []core.Finding {
	return nativecheck.Check(loadTree(tb, files, yaml), nativecheck.Options{})
}

// loadTree writes files (path relative to a new directory: content) and
// an invariants file, and loads it.
func loadTree(tb testing.TB, files map[string][]byte, yaml string) *invariants.Set {
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(tb, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(tb, os.WriteFile(p, content, 0o644))
	}
	return loadConfig(tb, dir, yaml)
}

// loadConfig writes an invariants file into dir and loads it.
func loadConfig(tb testing.TB, dir, yaml string) *invariants.Set {
	cfg := filepath.Join(dir, "guardlint.yaml")
	require.NoError(tb, os.WriteFile(cfg, []byte(yaml), 0o644))
	set, err := registry.Load(cfg)
	require.NoError(tb, err)
	return set
}

// messages lists the findings, for assertions and failure messages.
func messages(found []core.Finding) []string {
	var out []string
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(f.Pos.Filename), f.Pos.Line, f.Message))
	}
	return out
}

// hugeCPP is about size bytes of real C++, the annotated sources of the
// front end's testdata/cpp and testdata/cuda over and over
// (about 3.5 bytes of source per node of tree, as real code has), then a
// definition of Registry::add that holds its lock.
func hugeCPP(tb testing.TB, size int) []byte {
	var chunk []byte
	for _, g := range []string{"../treesitter/testdata/cpp/*.cc", "../treesitter/testdata/cuda/*.cu"} {
		paths, err := filepath.Glob(g)
		require.NoError(tb, err)
		for _, p := range paths {
			data, err := os.ReadFile(p)
			require.NoError(tb, err)
			if !bytes.Contains(data, []byte(suppress.Prefix)) { // directives for invariants not loaded here
				chunk = append(chunk, data...)
			}
		}
	}
	require.NotEmpty(tb, chunk)
	var b bytes.Buffer
	b.Grow(size + len(chunk) + 256)
	for b.Len() < size {
		b.Write(chunk)
	}
	// The forbidden call is named once, as a forbid of a call the files
	// never make must be (unseen.go).
	b.WriteString("\nvoid Registry::add(int k) {\n  std::lock_guard<std::mutex> l(mu_);\n  map_.insert(k);\n}\n// read_checked never calls abort.\n")
	return b.Bytes()
}

// hugeYAML asks for the lock of the one Registry::add(int) (the sources
// define another, with other parameters), and forbids abort
// in every copy of a function of the repeated sources.
const hugeYAML = `version: 1
invariants:
  - {id: add-locked, why: w, lang: cpp, files: huge.cc, function: "Registry::add(int)", hold: {lock: mu_}}
  - {id: no-abort, why: w, lang: cpp, files: huge.cc, all: true, function: Table::read_checked, forbid: {call: abort}}
`

func TestA50MBCPPFile(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("parses 50 MB of C++ (a minute, gigabytes); skipped with -short and under the race detector, and run by .ci/run without it")
	}
	found := checkTree(t, map[string][]byte{"huge.cc": hugeCPP(t, 50<<20)}, hugeYAML)
	assert.Empty(t, messages(found), "add holds its lock, and no copy of read_checked calls abort")
}

// nested builds src with depth levels of open around the body and close
// after it: one function whose body nests depth deep.
func nested(head, open, body, close, tail string, depth int) []byte {
	return []byte(head + strings.Repeat(open, depth) + body + strings.Repeat(close, depth) + tail)
}

// deepShapes are bodies nested 100,000 deep, each in a file beside a
// function of ordinary depth. The deep one nests past syntax.MaxDepth and
// cannot be verified; the other is checked as usual.
var deepShapes = []struct {
	name, lang, file string
	src              func(depth int) []byte
}{
	{"c braces", "c", "deep.c", func(d int) []byte {
		return nested("void deep(void) {", "{", "g();", "}", "}\nvoid ok(void) { g(); }\n", d)
	}},
	{"c parentheses", "c", "deep.c", func(d int) []byte {
		return nested("void deep(void) { int x = ", "(", "g()", ")", "; }\nvoid ok(void) { g(); }\n", d)
	}},
	{"c if chain", "c", "deep.c", func(d int) []byte {
		return nested("void deep(int a) {", "if (a) ", "g();", "", " }\nvoid ok(void) { g(); }\n", d)
	}},
	{"rust braces", "rust", "deep.rs", func(d int) []byte {
		return nested("fn deep() {", "{", "g();", "}", "}\nfn ok() { g(); }\n", d)
	}},
	{"rust parentheses", "rust", "deep.rs", func(d int) []byte {
		return nested("fn deep() { let x = ", "(", "g()", ")", "; }\nfn ok() { g(); }\n", d)
	}},
	{"rust if chain", "rust", "deep.rs", func(d int) []byte {
		return nested("fn deep(a: bool) {", "if a { ", "g();", " }", "}\nfn ok() { g(); }\n", d)
	}},
}

// deepYAML asks for a call of g in deep and in ok.
func deepYAML(lang, file string) string {
	return fmt.Sprintf(`version: 1
invariants:
  - {id: deep-calls, why: w, lang: %[1]s, files: %[2]s, function: deep, call: {to: g}}
  - {id: ok-calls, why: w, lang: %[1]s, files: %[2]s, function: ok, call: {to: g}}
`, lang, file)
}

func TestNesting100000Deep(t *testing.T) {
	for _, shape := range deepShapes {
		t.Run(shape.name, func(t *testing.T) {
			found := checkTree(t, map[string][]byte{shape.file: shape.src(100_000)}, deepYAML(shape.lang, shape.file))
			require.Len(t, found, 1, "%v", messages(found))
			assert.Equal(t, "deep-calls", found[0].ID)
			assert.Regexp(t, `^invariant deep-calls: cannot verify: deep at .*deep\.(c|rs):1:\d+ nests more than 100000 levels deep, deeper than the front end follows`, found[0].Message)
		})
	}
}

func TestNestingWithinTheDepthIsChecked(t *testing.T) {
	// 30,000 levels of the deepest shape (a Rust if chain is three levels
	// of tree each) stay below syntax.MaxDepth and are walked.
	for _, shape := range deepShapes {
		t.Run(shape.name, func(t *testing.T) {
			found := checkTree(t, map[string][]byte{shape.file: shape.src(30_000)}, deepYAML(shape.lang, shape.file))
			assert.Empty(t, messages(found))
		})
	}
}

func TestABinaryFileUnderAGlob(t *testing.T) {
	// An object file names the functions it defines; it passes the
	// prefilter and is refused as not text, not parsed into errors.
	object := append([]byte("\x7fELF\x02\x01\x01\x00"), []byte("_ZN8Registry3addEi\x00Registry add\x00")...)
	found := checkTree(t, map[string][]byte{
		"src/registry.cc": []byte("void Registry::add(int k) { std::lock_guard<std::mutex> l(mu_); map_.insert(k); }\n"),
		"src/registry.o":  object,
		"src/image.png":   []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
	}, `version: 1
invariants:
  - {id: add-locked, why: w, lang: cpp, files: "src/*", function: Registry::add, hold: {lock: mu_}}
`)
	require.Len(t, found, 1, "%v", messages(found))
	assert.Regexp(t, `^invariant add-locked: cannot verify: .*src/registry\.o:1:8: not a text file \(a NUL byte\); narrow the files glob`, found[0].Message)
}

// largeTree writes files empty files in dirs directories, two levels
// deep, and one C file that defines f; it returns the directory.
func largeTree(tb testing.TB, dirs, files int) string {
	root := tb.TempDir()
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, "tree", fmt.Sprintf("d%d", d%32), fmt.Sprintf("e%d", d))
		require.NoError(tb, os.MkdirAll(dir, 0o755))
		for i := 0; i < files/dirs; i++ {
			require.NoError(tb, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.h", i)), nil, 0o644))
		}
	}
	require.NoError(tb, os.WriteFile(filepath.Join(root, "tree", "d7", "f.c"), []byte("void f(void) { g(); }\n"), 0o644))
	return root
}

func TestAGlobThatWalksALargeTree(t *testing.T) {
	root := largeTree(t, 1000, 20_000)
	set := loadConfig(t, root, `version: 1
invariants:
  - {id: f-calls, why: w, lang: c, files: "tree/**/*.c", function: f, call: {to: g}}
  - {id: f-calls-narrow, why: w, lang: c, files: "tree/*/*.c", function: f, call: {to: g}}
  - {id: f-calls-headers, why: w, lang: c, files: "tree/**/**/**/**/*.h", function: f, call: {to: g}}
`)
	found := nativecheck.Check(set, nativecheck.Options{})
	// The 20,000 headers are read, and none defines f.
	require.Len(t, found, 1, "%v", messages(found))
	assert.Equal(t, "f-calls-headers", found[0].ID)
	assert.Contains(t, found[0].Message, "function f not found in tree/**/**/**/**/*.h")
}

func TestASymlinkLoopUnderAGlob(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "a.c"), []byte("void f(void) { g(); }\n"), 0o644))
	require.NoError(t, os.Symlink(src, filepath.Join(src, "loop")))        // a directory that holds itself
	require.NoError(t, os.Symlink("self.c", filepath.Join(src, "self.c"))) // a link to itself
	set := loadConfig(t, root, `version: 1
invariants:
  - {id: walk, why: w, lang: c, files: "src/**/*.c", function: f, call: {to: g}}
  - {id: through-loop, why: w, lang: c, files: "src/loop/loop/loop/a.c", function: f, call: {to: g}}
  - {id: self, why: w, lang: c, files: "src/self.c", function: f, call: {to: g}}
`)
	found := nativecheck.Check(set, nativecheck.Options{})
	// The walk does not follow links: it finds a.c once (a second a.c
	// through the loop would make f defined twice). A file named through
	// the loop is a path like any other; a link to itself cannot be read.
	require.Len(t, found, 1, "%v", messages(found))
	assert.Equal(t, "self", found[0].ID)
	assert.Contains(t, found[0].Message, `cannot verify: files "src/self.c": stat `)
	assert.Contains(t, found[0].Message, "too many levels of symbolic links")
}

func TestAFileLargerThanTheLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.c")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(syntax.MaxFileSize+1)) // sparse
	require.NoError(t, f.Close())
	set := loadConfig(t, dir, "version: 1\ninvariants:\n  - {id: f-calls, why: w, lang: c, files: big.c, function: f, call: {to: g}}\n")
	found := nativecheck.Check(set, nativecheck.Options{})
	require.Len(t, found, 1, "%v", messages(found))
	assert.Contains(t, found[0].Message, "cannot verify: cannot read "+big+": "+big+" is 128 MiB, larger than the front end reads (128 MiB)")
}

// orderYAML asks that a be taken before b in every function of file.
const orderYAML = `version: 1
invariants:
  - {id: a-before-b, why: w, lang: c, files: %s, lock_order: [a, b]}
`

// reversed takes b, then a: the edge lock_order refuses.
const reversed = "void reversed(void) { pthread_mutex_lock(&b); pthread_mutex_lock(&a); }\n"

// TestAFilesRuleNests100000Deep checks that a kind that reads every
// function of its files (lock_order) is as bounded as a kind with a
// target: a function nested past syntax.MaxDepth that takes its locks
// cannot be verified, and the other functions are still checked.
func TestAFilesRuleNests100000Deep(t *testing.T) {
	src := nested("void deep(void) { pthread_mutex_lock(&a);", "{", "g();", "}", "}\n"+reversed, 100_000)
	found := checkTree(t, map[string][]byte{"deep.c": src}, fmt.Sprintf(orderYAML, "deep.c"))
	got := messages(found)
	require.Len(t, got, 2, "%v", got)
	assert.Regexp(t, `cannot verify: deep at .*deep\.c:1:\d+ nests more than 100000 levels deep`, got[0]+got[1])
	assert.Regexp(t, `reversed takes a while holding b`, got[0]+got[1])
}

// TestAFilesRuleReadsThroughTheView checks that a kind that reads every
// function of its files sees them through the view a revert or a patch
// chain gives (nativecheck.Options.Files), not the disk.
func TestAFilesRuleReadsThroughTheView(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "locks.c")
	require.NoError(t, os.WriteFile(file, []byte("void ok(void) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); }\n"), 0o644))
	set := loadConfig(t, dir, fmt.Sprintf(orderYAML, "locks.c"))
	assert.Empty(t, messages(nativecheck.Check(set, nativecheck.Options{})))
	view := overlay.New()
	view.Replace(file, []byte(reversed))
	found := messages(nativecheck.Check(set, nativecheck.Options{Files: view}))
	require.Len(t, found, 1, "%v", found)
	assert.Contains(t, found[0], "reversed takes a while holding b")
}
