package main

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// TestRustPatternGuard checks each binding form of the pattern rule, and
// the values and patterns it does not take for a guard.
func TestRustPatternGuard(t *testing.T) {
	cases := []struct {
		src, form, name, lock string
	}{
		{"if let Ok(mut g) = self.mu.lock() { g.push(1) }", "if_let", "g", "self.mu"},
		{"while let Some(g) = q.try_lock() { g.run(); }", "while_let", "g", "q"},
		{"let Ok(g) = m.write() else { return };", "let_else", "g", "m"},
		{"match self.mu.read().ok() { Some(g) => g.len(), None => 0 };", "match", "g", "self.mu"},
		{"if let g = m.lock().await { g.go(); }", "if_let", "g", "m"},
		// No guard: the pattern binds none, another value, a call with
		// arguments.
		{"if let Ok(_) = m.lock() { go(); }", "", "", ""},
		{"if let Some(x) = m.lock().unwrap().pop() { x.go(); }", "", "", ""},
		{"if let Err(e) = m.lock() { e.go(); }", "", "", ""},
		{"if let Ok(g) = m.lock(1) { g.go(); }", "", "", ""},
	}
	for _, c := range cases {
		src := []byte("fn f(&self) {\n" + c.src + "\n}\n")
		f, err := syntax.Parse("rust", "x.rs", src)
		if err != nil {
			t.Fatal(err)
		}
		body := f.Root.NamedChildren()[0].Child("body")
		live := func(*syntax.Node) core.Liveness { return core.Liveness{} }
		g, lock, _, b := rustPatternGuard(f, body, live)
		if c.form == "" {
			if g != nil {
				t.Errorf("%s: picked %s as a guard", c.src, g.name)
			}
			continue
		}
		if g == nil {
			t.Errorf("%s: no guard found", c.src)
			continue
		}
		if b.form != c.form || g.name != c.name || lock != c.lock {
			t.Errorf("%s: got %s %s on %s, want %s %s on %s", c.src, b.form, g.name, lock, c.form, c.name, c.lock)
		}
	}
}
