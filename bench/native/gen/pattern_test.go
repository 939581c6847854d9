package main

import (
	"slices"
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
		// `None` is the variant and binds nothing: the next arm binds.
		{"match r.read()? { None => 0, Some(t) => t.n() };", "match", "t", "r"},
		// No guard: the pattern binds none, another value, a call with
		// arguments.
		{"if let Ok(_) = m.lock() { go(); }", "", "", ""},
		{"if let Some(x) = m.lock().unwrap().pop() { x.go(); }", "", "", ""},
		{"if let Err(e) = m.lock() { e.go(); }", "", "", ""},
		{"if let Ok(g) = m.lock(1) { g.go(); }", "", "", ""},
	}
	for _, c := range cases {
		_, g, lock, b := patternGuardOf(t, c.src)
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

// TestThirdPackages checks rule version 3 on an index: the packages whose
// Depends name a lock crate (plain, versioned, in an alternative, with an
// architecture qualifier), sorted by name, and none other.
func TestThirdPackages(t *testing.T) {
	index := `Package: librust-zz-dev
Version: 1.0-1
Depends: librust-foo-dev,
 librust-tokio-1+sync-dev (>= 1.38-~~)

Package: librust-aa-dev
Version: 2.0-3
Depends: librust-bar-dev | librust-parking-lot-dev:amd64

Package: librust-tokio-util-user-dev
Version: 1
Depends: librust-tokio-util-0.7-dev

Package: librust-spinner-dev
Version: 1
Depends: librust-spinners-dev

Package: librust-mm-dev
Version: 0.1-1
Depends: librust-spin-0.9+mutex-dev

Package: rust-tool
Version: 1
Depends: librust-tokio-dev

Package: librust-nn-dev
Version: 1
Description: a lock
 Depends: librust-tokio-dev
`
	got := thirdPackages(index)
	want := []string{"librust-aa-dev=2.0-3", "librust-mm-dev=0.1-1", "librust-zz-dev=1.0-1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestDroppedMutant checks when the pattern rule drops the bound name: not
// when the value is unwrapped and the name is inside Ok or Some, since the
// value is then the guard and the name is not.
func TestDroppedMutant(t *testing.T) {
	cases := []struct {
		src     string
		dropped bool
	}{
		{"match m.try_lock() { Some(g) => { g.a(); } None => {} };", true},
		{"if let Ok(g) = m.lock() { g.a(); }", true},
		{"if let g = m.lock().unwrap() { g.a(); }", true},
		{"match r.read()? { Some(t) => { t.a(); } None => {} };", false},
		{"if let Some(t) = r.read().unwrap() { t.a(); }", false},
		{"if let Ok(t) = r.write().expect(\"w\").await { t.a(); }", false},
		{"let Some(t) = r.read()? else { return }; t.a();", false},
	}
	for _, c := range cases {
		f, g, _, b := patternGuardOf(t, c.src)
		if g == nil {
			t.Errorf("%s: no guard found", c.src)
			continue
		}
		muts := patternMutants(f, pick{guard: *g, binding: b})
		got := slices.ContainsFunc(muts, func(m mutant) bool { return m.op == "dropped" })
		if got != c.dropped {
			t.Errorf("%s: dropped mutant made: %v, want %v", c.src, got, c.dropped)
		}
	}
}

// patternGuardOf parses src as the body of a method and returns the guard
// the pattern rule finds in it, its lock and its binding.
func patternGuardOf(t *testing.T, src string) (*syntax.File, *guard, string, *binding) {
	t.Helper()
	f, err := syntax.Parse("rust", "x.rs", []byte("fn f(&self) {\n"+src+"\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	body := f.Root.NamedChildren()[0].Child("body")
	live := func(*syntax.Node) core.Liveness { return core.Liveness{} }
	g, lock, _, b := rustPatternGuard(f, body, live)
	return f, g, lock, b
}
