package fix

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End to end: each test makes a scratch git repository whose last commit
// is a fix of one of the patterns real fixes have (bench/fixes), runs
// suggest on it as `guardlint suggest HEAD` would, and checks what it
// proposes, then that prove --revert catches the revert with what it
// printed.

// proposalsOf returns the printed proposals as "kind function lock-or-callee".
func proposalsOf(s *Suggestion) []string {
	var out []string
	for _, c := range s.Proven {
		name := ""
		if len(c.Says) > 1 {
			name = c.Says[1]
		}
		out = append(out, string(c.Kind)+" "+c.Target()+" "+name)
	}
	return out
}

// assertRevertCaught checks that the invariants suggest printed, loaded
// as a maintainer pastes them, catch the revert of the fix at HEAD.
func assertRevertCaught(t *testing.T, s *Suggestion, dir string) {
	t.Helper()
	set, _ := printedSet(t, s)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}

// printedSet parses what a suggestion prints as the invariants file a
// maintainer keeps.
func printedSet(t *testing.T, s *Suggestion) (*invariants.Set, string) {
	t.Helper()
	var out bytes.Buffer
	s.Print(&out)
	module, err := moduleOf(s.Dir)
	require.NoError(t, err)
	f, _, err := invariants.Parse(registry.Specs(), filepath.Join(s.Dir, "guardlint.yaml"), out.Bytes(), module)
	require.NoError(t, err, out.String())
	return &invariants.Set{Files: []*invariants.File{f}, Invariants: f.Invariants}, out.String()
}

const goMod = "module example.com/m\n\ngo 1.21\n"

// A fix that puts a method's body under a mutex the struct embeds
// (`c.Lock()` on an embedded sync.Mutex), after a guard clause that
// returns before the lock: suggest proposes hold on the embedded field,
// named as the checker names it, (cache).Mutex, not the field of another
// struct, and the guard clause does not drop it (hold lets a body return
// before it takes the lock). The field write under it is what guarded_by
// proposes from: m guarded by the embedded Mutex.
func TestSuggestEmbeddedMutex(t *testing.T) {
	before := `package cache

import "sync"

type cache struct {
	sync.Mutex
	m map[string]int
}

func (c *cache) Put(k string, v int) {
	if c == nil {
		return
	}
	c.m[k] = v
}
`
	after := strings.Replace(before, "\t}\n\tc.m[k] = v", "\t}\n\tc.Lock()\n\tdefer c.Unlock()\n\tc.m[k] = v", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": goMod, "cache/cache.go": before},
		map[string]string{"cache/cache.go": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{"hold (*cache).Put (cache).Mutex", "guarded_by (*cache).m Mutex"}, proposalsOf(s), "left out: %v", s.Rejected)
	// The access the fix put under the lock is the fact a guarded_by kind
	// proposes from: the field, written, with the embedded lock.
	require.Len(t, s.Facts.Guarded, 1)
	g := s.Facts.Guarded[0]
	assert.Equal(t, []any{"(cache).m", "(cache).Mutex", true}, []any{g.Field, g.Lock, g.Write})

	set, printed := printedSet(t, s)
	assert.Contains(t, printed, "  # hunk cache/cache.go:", "grouped by the hunk it keeps")
	assert.Contains(t, printed, "why: commit B", "the why is the commit's subject")
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	assert.True(t, rep.OK(false), "every hunk caught: %+v", rep.Hunks)
}

// A fix to one of two overloads of a C++ method: the invariant names the
// overload with its parameter list, which the front end matches, instead
// of a name that two definitions share (which it would refuse as
// ambiguous, and the fix's own line would go unproposed).
func TestSuggestOverloadedCPP(t *testing.T) {
	before := `#include <mutex>
#include <string>

class Device {
 public:
  int get_kernel(int id);
  int get_kernel(const std::string& name);

 private:
  std::mutex mu_;
  int lookup(const std::string& name);
};

int Device::get_kernel(int id) {
  return id;
}

int Device::get_kernel(const std::string& name) {
  return lookup(name);
}
`
	after := strings.Replace(before, "{\n  return lookup(name);", "{\n  std::lock_guard<std::mutex> lock(mu_);\n  return lookup(name);", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"device.cc": before},
		map[string]string{"device.cc": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{"hold Device::get_kernel(const std::string&) mu_"}, proposalsOf(s), "left out: %v", s.Rejected)

	assertRevertCaught(t, s, dir)
}

// A fix that touches a package of the root module and a helper of a
// test-only module beside it (its own go.mod, whose requirement cannot
// be had here): the root module's package is loaded from the root module
// and proposed for; the test module's package is listed as not loaded,
// with the reason, instead of costing every proposal.
func TestSuggestBesideTestOnlyModule(t *testing.T) {
	pool := `package pool

import "sync"

type Pool struct {
	mu    sync.Mutex
	items []int
}

func (p *Pool) Put(x int) {
	p.items = append(p.items, x)
}
`
	fixed := strings.Replace(pool, "{\n\tp.items", "{\n\tp.mu.Lock()\n\tdefer p.mu.Unlock()\n\tp.items", 1)
	require.NotEqual(t, pool, fixed)
	itestMod := "module example.com/m/pool/itest\n\ngo 1.21\n\nrequire example.com/harness v1.0.0\n\nreplace example.com/harness => ./harness\n"
	helper := "package itest\n\nimport \"example.com/harness\"\n\nfunc Workers() int { return harness.N + 4 }\n"
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": goMod, "pool/pool.go": pool, "pool/itest/go.mod": itestMod, "pool/itest/helper.go": helper},
		map[string]string{"pool/pool.go": fixed, "pool/itest/helper.go": strings.Replace(helper, "4", "8", 1)})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{"hold (*Pool).Put (Pool).mu", "guarded_by (*Pool).items mu"}, proposalsOf(s), "left out: %v", s.Rejected)
	require.Len(t, s.Left, 1, "the test module is listed as not loaded")
	assert.Contains(t, s.Left[0], "pool/itest")
}

// A Rust fix that adds a guard to a method and a test of it under
// #[cfg(test)]: suggest proposes the guard's hold and nothing from the
// test module (its calls are the test's, not the fix's; the front end
// reads #[cfg(test)] code as not compiled, as rustc does without
// --test), nor a call for the guard's own lock(); prove --revert calls the test hunk a test hunk, not an
// uncovered one.
func TestSuggestRustWithTestHunk(t *testing.T) {
	before := `use std::sync::Mutex;

pub struct Pool {
    mu: Mutex<Vec<u32>>,
}

impl Pool {
    pub fn drain(&self) {
        self.recycle();
    }

    fn recycle(&self) {}

    pub fn len(&self) -> usize {
        let v = self.mu.lock().unwrap();
        v.len()
    }

    pub fn push(&self, x: u32) {
        let mut v = self.mu.lock().unwrap();
        v.push(x);
    }
}
`
	after := strings.Replace(before, "{\n        self.recycle();", "{\n        let _g = self.mu.lock().unwrap();\n        self.recycle();", 1) + `
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drains() {
        let p = Pool { mu: Mutex::new(vec![1]) };
        p.drain();
        p.recycle();
    }
}
`
	dir := ruletest.GitRepo(t,
		map[string]string{"src/lib.rs": before},
		map[string]string{"src/lib.rs": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{"hold Pool::drain self.mu"}, proposalsOf(s), "left out: %v", s.Rejected)

	set, _ := printedSet(t, s)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	var verdicts []Verdict
	for _, h := range rep.Hunks {
		verdicts = append(verdicts, h.Verdict)
	}
	assert.Equal(t, []Verdict{Caught, Test}, verdicts)
	assert.True(t, rep.OK(false))
}
