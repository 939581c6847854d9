package treesitter

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// FuzzLanguages feeds arbitrary source to every front end: finding
// functions and describing their calls, exits, guards and writes must
// never panic, whatever tree-sitter recovers from broken input.
func FuzzLanguages(f *testing.F) {
	for _, s := range []string{
		"void f() { std::lock_guard<M> l(m); if (0) g(); return; h(); }",
		"#if X\nvoid f() { [&]{ a.b = 1; }(); }\n#else\nint\n#endif",
		"impl T { fn f(&mut self) { let g = self.m.lock().unwrap(); drop(g); self.a = None; x?; } }",
		"fn f() { #[cfg(any())] m![a, b]; (|| q())(); let _ = m.lock(); panic!(); }",
		"void f( { if (", "fn f( { let = ;", "struct { void ~() {} };", "mod { impl for { fn } }",
	} {
		for _, l := range []string{"c", "cpp", "cuda", "rust"} {
			f.Add(l, s)
		}
	}
	f.Fuzz(func(t *testing.T, lang, src string) {
		lg, ok := languages[invariants.Lang(lang)]
		if !ok {
			return
		}
		file, err := syntax.Parse(syntax.Lang(lang), "fuzz", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		conf := &model.Config{Defines: []invariants.Define{{Name: "X", Values: []string{"1"}}}}
		for _, fn := range lg.Functions(file, conf) {
			lg.Calls(file, fn, conf)
			lg.Exits(file, fn, conf)
			lg.Hold(file, fn, conf)
			lg.Writes(file, fn, "T", "a", conf)
		}
	})
}
