package treesitter

import (
	"errors"
	"go/build"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// fuzzBudget is the parse budget of the fuzz targets: well below the ten
// seconds after which the fuzzing engine takes an input for a hang, so
// that an input tree-sitter loops on ends as guardlint ends it, with a
// budget error, instead of stopping the fuzzer.
const fuzzBudget = 500 * time.Millisecond

// The fuzz targets feed arbitrary source to one front end each: parsing,
// finding functions, and the facts the rule kinds read about every
// function (its calls, exits, guards and writes, through Function, and the
// dominance of its calls over its calls and exits) must never panic and
// must return, whatever tree-sitter recovers from broken input. A parse
// that runs out of its budget and a file that is not text are results,
// not failures. The kinds' own checks over these facts run on every input
// kept in the corpus, through Check (TestFuzzCorpusThroughCheck).

func FuzzC(f *testing.F)    { fuzzLanguage(f, invariants.LangC) }
func FuzzCPP(f *testing.F)  { fuzzLanguage(f, invariants.LangCPP) }
func FuzzCUDA(f *testing.F) { fuzzLanguage(f, invariants.LangCUDA) }
func FuzzRust(f *testing.F) { fuzzLanguage(f, invariants.LangRust) }

// snippets are hand-written seeds: the shapes the rules care about, and
// broken code.
var snippets = map[invariants.Lang][]string{
	invariants.LangC: {
		"void f(void) { lock(&mu); if (0) g(); return; h(); }",
		"#if X\nvoid f(void) { a->b = 1; }\n#else\nint\n#endif",
		"void f( { if (", "int x = ((((1));",
	},
	invariants.LangCPP: {
		"void f() { std::lock_guard<M> l(m); if (0) g(); return; h(); }",
		"#if X\nvoid f() { [&]{ a.b = 1; }(); }\n#else\nint\n#endif",
		"namespace a::b { struct T { void f() { std::unique_lock<M> l{mu}; l.unlock(); read(); } }; }",
		"void f( { if (", "struct { void ~() {} };",
	},
	invariants.LangCUDA: {
		"__global__ void k(float *a) { a[threadIdx.x] = 1; }\nvoid f() { k<<<1, 2>>>(a); lock(); read(); }",
		"void f( { k<<<",
	},
	invariants.LangRust: {
		"impl T { fn f(&mut self) { let g = self.m.lock().unwrap(); drop(g); self.a = None; x?; } }",
		"fn f() { #[cfg(any())] m![a, b]; (|| q())(); let _ = m.lock(); panic!(); }",
		"fn f( { let = ;", "mod { impl for { fn } }",
	},
}

// realSeeds returns the files of real code a target starts from, read
// where they are installed when they are (the repository keeps no copy of
// other projects' code): the C of the Go distribution's runtime/cgo,
// libstdc++ 12's lock headers (Debian libstdc++-12-dev) and the annotated
// C++ of testdata, this repository's CUDA kernels, and the lock code of
// the Rust standard library (Debian rust-src) with the annotated Rust of
// testdata. The hand-written snippets seed every target whether or not
// the installed files are present.
func realSeeds(tb testing.TB, lang invariants.Lang) [][]byte {
	var globs []string
	switch lang {
	case invariants.LangC:
		globs = []string{filepath.Join(build.Default.GOROOT, "src/runtime/cgo/gcc_*.c")}
	case invariants.LangCPP:
		globs = []string{"/usr/include/c++/12/bits/std_mutex.h", "/usr/include/c++/12/bits/unique_lock.h",
			"/usr/include/c++/12/bits/shared_mutex.h", "testdata/cpp/*.cc"}
	case invariants.LangCUDA:
		globs = []string{"../../runtime/kernels/*.cu"}
	case invariants.LangRust:
		std := "/usr/lib/rustlib/src/rust/library/std/src/sys_common/"
		globs = []string{std + "mutex.rs", std + "rwlock.rs", std + "lazy_box.rs", "testdata/rust/*.rs"}
	}
	var out [][]byte
	for _, g := range globs {
		paths, err := filepath.Glob(g)
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

// fuzzLanguage is the body of the fuzz target of one language.
func fuzzLanguage(f *testing.F, lang invariants.Lang) {
	for _, s := range snippets[lang] {
		f.Add([]byte(s))
	}
	for _, s := range realSeeds(f, lang) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		frontEnd(t, lang, src)
	})
}

// frontEnd runs one front end over src, and asks every fact of every
// function the rule kinds ask.
func frontEnd(t testing.TB, lang invariants.Lang, src []byte) {
	lg := languages[lang]
	file, err := syntax.ParseWithin(syntax.Lang(lang), "fuzz", src, fuzzBudget)
	switch {
	case errors.Is(err, syntax.ErrBudget), errors.Is(err, syntax.ErrNotText):
		return
	case err != nil:
		t.Fatal(err)
	}
	conf := &model.Config{Defines: []invariants.Define{{Name: "X", Values: []string{"1"}}}}
	for _, def := range lg.Functions(file, conf) {
		syntax.FirstBad(def.Node)
		if file.TooDeep(def.Node, "f") != nil {
			continue // the checker refuses it before any walker runs
		}
		fn := &Function{File: file, Func: def, lang: lg, conf: conf}
		calls := fn.Calls()
		exits := fn.Exits()
		fn.Hold()
		lg.Writes(file, def, "T", "a", conf)
		var at []*syntax.Node
		for _, c := range calls {
			model.MatchCall(&c, []string{"g"})
			at = append(at, c.Node)
		}
		dom := fn.Dominance(at)
		dom.Always()
		for _, n := range at {
			dom.Dominated(n)
		}
		for _, e := range exits {
			if n := e.At; n != nil {
				dom.Dominated(n)
			}
		}
	}
}
