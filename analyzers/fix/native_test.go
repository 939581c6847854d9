package fix

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const unlockedCC = `#include <mutex>
#include <unordered_map>

struct Encoder;

class Registry {
 public:
  void add(int stream, Encoder* enc);

 private:
  std::mutex mu;
  std::unordered_map<int, Encoder*> by_stream;
};

void Registry::add(int stream, Encoder* enc) {
  by_stream[stream] = enc;
}
`

const unlockedRS = `use std::sync::Mutex;

pub struct Pool {
    mu: Mutex<()>,
}

impl Pool {
    pub fn drain(&self) {
        self.recycle();
    }

    fn recycle(&self) {}
}
`

// nativeFix is a repository whose second commit adds a lock to a C++
// registry and a Rust pool, guarded by invariants of the first.
func nativeFix(t *testing.T) (string, *invariants.Set) {
	dir := ruletest.GitRepo(t, map[string]string{
		"go.mod":          "module example.com/native\n\ngo 1.22\n",
		"src/registry.cc": unlockedCC,
		"src/pool.rs":     unlockedRS,
		"guardlint.yaml": `version: 1
invariants:
  - id: registry-add-locked
    why: two threads registering at once corrupt the map
    lang: cpp
    files: src/registry.cc
    function: Registry::add
    hold:
      lock: mu
  - id: pool-drain-locked
    why: two threads draining at once recycle one encoder twice
    lang: rust
    files: src/pool.rs
    function: Pool::drain
    hold:
      lock: self.mu
`,
	}, map[string]string{
		"src/registry.cc": strings.Replace(unlockedCC, "  by_stream[stream] = enc;\n", "  std::lock_guard<std::mutex> l(mu);\n  by_stream[stream] = enc;\n", 1),
		"src/pool.rs":     strings.Replace(unlockedRS, "        self.recycle();\n", "        let _held = self.mu.lock().unwrap();\n        self.recycle();\n", 1),
	})
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	return dir, set
}

// TestRevertOfANativeFix reverts a C++ and a Rust lock in memory: the
// tree-sitter front end reads the reverted files through the overlay,
// the work tree keeps the fix.
func TestRevertOfANativeFix(t *testing.T) {
	dir, set := nativeFix(t)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	assert.Equal(t, []string{"pool-drain-locked", "registry-add-locked"}, rep.Catchers())
	require.Len(t, rep.Hunks, 2)
	for _, h := range rep.Hunks {
		assert.Equal(t, Caught, h.Verdict, h.File)
	}
	data, err := os.ReadFile(filepath.Join(dir, "src/registry.cc"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "lock_guard", "the work tree is not written")

	// A range names the same change.
	rep, err = Prove(set, "HEAD~1..HEAD", Options{Dir: dir, NoHunks: true})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}

// TestSuggestForANativeFix proposes the two guards the fix added, proven
// against its revert.
func TestSuggestForANativeFix(t *testing.T) {
	dir, _ := nativeFix(t)
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	var got []string
	for _, c := range s.Proven {
		got = append(got, string(c.Kind)+" "+c.Function+" "+c.Keys[0].Value)
	}
	assert.Contains(t, got, "hold Registry::add mu")
	assert.Contains(t, got, "hold Pool::drain self.mu")
	var out bytes.Buffer
	s.Print(&out)
	assert.Contains(t, out.String(), "    lang: cpp\n    files: src/registry.cc\n    function: Registry::add\n    hold:\n      lock: mu\n")
}

// TestReadRefusesAShallowHistory checks that a commit whose parent a
// shallow clone cut off is refused with a way out, not diffed against
// the empty tree.
func TestReadRefusesAShallowHistory(t *testing.T) {
	dir, _ := nativeFix(t)
	clone := filepath.Join(t.TempDir(), "shallow")
	_, err := git(dir, "clone", "-q", "--depth", "1", "file://"+dir, clone)
	require.NoError(t, err)
	_, err = Read(clone, "HEAD", nil)
	require.ErrorIs(t, err, ErrShallow)
	assert.Contains(t, err.Error(), "git fetch --unshallow")
}

// TestReadRejectsBadRevisions names what is wrong with the revision.
func TestReadRejectsBadRevisions(t *testing.T) {
	dir, _ := nativeFix(t)
	for rev, want := range map[string]string{
		"no-such-commit": `revision "no-such-commit" is not a commit of this repository`,
		"HEAD...HEAD~1":  `revision "HEAD...HEAD~1": give a commit or a range A..B`,
		"..HEAD":         `revision "..HEAD": give a commit or a range A..B`,
	} {
		_, err := Read(dir, rev, nil)
		assert.ErrorContains(t, err, want, rev)
	}
	_, err := Read(dir, "HEAD", []string{"docs"})
	assert.ErrorContains(t, err, "changes no file under docs")
}

// TestExitCodes: caught is 0, a revert that passes 1, a revert that
// cannot be made 2; suggest prints its file and exits 0.
func TestExitCodes(t *testing.T) {
	dir, set := nativeFix(t)
	var out, errOut bytes.Buffer
	code := ProveMain(set, RevertFlags{Rev: "HEAD"}, Options{Dir: dir}, &out, &errOut)
	assert.Equal(t, 0, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "revert ")
	assert.Contains(t, out.String(), ": caught (")

	weak := &invariants.Set{Files: set.Files, Invariants: set.Invariants[:0]}
	out.Reset()
	assert.Equal(t, 1, ProveMain(weak, RevertFlags{Rev: "HEAD"}, Options{Dir: dir}, &out, &errOut))
	assert.Contains(t, out.String(), "missed: every invariant holds on the reverted tree")

	errOut.Reset()
	assert.Equal(t, 2, ProveMain(set, RevertFlags{Rev: "HEAD~5"}, Options{Dir: dir}, &out, &errOut))
	assert.Contains(t, errOut.String(), `revision "HEAD~5" is not a commit`)

	out.Reset()
	code = SuggestMain([]string{"-C", dir, "HEAD"}, &out, &errOut, func(string) string { return "" })
	assert.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "version: 1\ninvariants:\n")
	assert.Contains(t, out.String(), "function: Pool::drain")
}

const uncheckedCC = `struct Encoder;
void drop_all();
void report_out_of_range(int i);

class Table {
 public:
  bool in_bounds(int i) const;
  int read(int i) const;
  int load(int i) const;

 private:
  int size;
  int* data;
};

bool Table::in_bounds(int i) const { return i >= 0 && i < size; }
int Table::read(int i) const { return data[i]; }

int Table::load(int i) const {
  return read(i);
}

class Buffer {
 public:
  void set(Encoder* e);
  void reset();

 private:
  void flush();
  Encoder* active;
};

void Buffer::set(Encoder* e) { active = e; }

void Buffer::reset() {
  active = nullptr;
  drop_all();
  flush();
}

void Buffer::flush() {}
`

const uncheckedRS = `pub struct Table {
    len: usize,
    data: Vec<u32>,
}

impl Table {
    fn in_bounds(&self, i: usize) -> bool {
        i < self.len
    }

    fn read(&self, i: usize) -> u32 {
        self.data[i]
    }

    pub fn load(&self, i: usize) -> u32 {
        self.read(i)
    }
}

pub struct Buffer {
    active: Option<u32>,
}

impl Buffer {
    pub fn set(&mut self, e: u32) {
        self.active = Some(e);
    }

    pub fn reset(&mut self) {
        self.active = None;
        self.flush();
    }

    fn flush(&mut self) {}
}
`

// TestSuggestProposesEveryKindForANativeFix: a C++ and a Rust fix that add
// a bounds check before a read (the C++ one reports what it rejects: the
// read, which the fix did not add, is what the check protects), and stop reset from clearing the active
// encoder itself (set alone writes it) and, in C++, from dropping every
// encoder. suggest proposes, as for Go, call and order for the check,
// owns for the removed write and forbid for the removed call, each proven
// on the work tree and against the revert.
func TestSuggestProposesEveryKindForANativeFix(t *testing.T) {
	dir := ruletest.GitRepo(t, map[string]string{
		"go.mod":       "module example.com/native\n\ngo 1.22\n",
		"src/table.cc": uncheckedCC,
		"src/table.rs": uncheckedRS,
	}, map[string]string{
		"src/table.cc": strings.NewReplacer(
			"  return read(i);\n", "  if (!in_bounds(i)) {\n    report_out_of_range(i);\n    return -1;\n  }\n  return read(i);\n",
			"  active = nullptr;\n  drop_all();\n", "").Replace(uncheckedCC),
		"src/table.rs": strings.NewReplacer(
			"        self.read(i)\n", "        if !self.in_bounds(i) {\n            return 0;\n        }\n        self.read(i)\n",
			"        self.active = None;\n", "").Replace(uncheckedRS),
	})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	var got []string
	for _, c := range s.Proven {
		line := fmt.Sprintf("%s %s %s", c.Lang, c.Kind, c.Target())
		for _, k := range c.Keys {
			line += fmt.Sprintf(" %s=%s%v", k.Name, k.Value, k.List)
		}
		got = append(got, line)
	}
	// Grouped by hunk, in the change's order; the calls of in_bounds are
	// implied by the orders that check it first.
	assert.Equal(t, []string{
		"cpp order Table::load first=in_bounds[] then=read[]",
		"cpp call Table::load to=report_out_of_range[]",
		"cpp owns Buffer::active writers=[Buffer::set]",
		"cpp forbid Buffer::reset call=drop_all[]",
		"rust order Table::load first=self.in_bounds[] then=self.read[]",
		"rust owns Buffer::active writers=[Buffer::set]",
	}, got, "rejected: %v", s.Rejected)
	requirePrintedProves(t, s, dir, nil)
	var out bytes.Buffer
	s.Print(&out)
	assert.Contains(t, out.String(), "  # from table.cc:36 (removed): the fix removed a write of it elsewhere; the code before the fix fails it\n")
	assert.Contains(t, out.String(), "    lang: rust\n    files: src/table.rs\n    field: Buffer::active\n    owns:\n      writers: [Buffer::set]\n")
}
