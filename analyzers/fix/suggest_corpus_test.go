package fix

import (
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End to end, the shapes of the fix corpus (bench/fixes) that suggest
// learnt after its first measurement; each test names the commit it is
// cut from.

// dgraph-io/ristretto 62cb731: Clear stops replacing a channel field
// (it drains it instead), and the only function that sets the field now
// is the constructor, in a composite literal. owns counts a composite
// literal's field as a write, so the constructor is the writer suggest
// names; without it the field has no writer and nothing is proposed.
func TestSuggestOwnsWithConstructorWriter(t *testing.T) {
	after := `package cache

type Cache struct {
	buf  chan int
	stop chan struct{}
}

func New() *Cache {
	return &Cache{buf: make(chan int, 8), stop: make(chan struct{})}
}

func (c *Cache) Clear() {
	for {
		select {
		case <-c.buf:
		default:
			return
		}
	}
}
`
	before := strings.Replace(after, "\tfor {\n\t\tselect {\n\t\tcase <-c.buf:\n\t\tdefault:\n\t\t\treturn\n\t\t}\n\t}\n", "\tc.buf = make(chan int, 8)\n", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": goMod, "cache/cache.go": before},
		map[string]string{"cache/cache.go": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, []string{"owns (Cache).buf "}, proposalsOf(s), "left out: %v", s.Rejected)
	assert.Equal(t, "writers", s.Proven[0].Keys[0].Name)
	assert.Equal(t, []string{"New"}, s.Proven[0].Keys[0].List, "the constructor sets the field in a composite literal")

	assertRevertCaught(t, s, dir)
}

// dgraph-io/ristretto 1eea1b1: the fix stops reading an evicted value
// through the store's interface before deleting it (Del returns it).
// The removed call is of an interface method of the module, (store).Get,
// which forbid matches as the interface's method, whatever implements
// it; a method of an interface is still never a function suggest
// proposes a body rule for.
func TestSuggestForbidInterfaceMethod(t *testing.T) {
	after := `package cache

type store interface {
	Get(k uint64) int
	Del(k uint64) int
}

type Cache struct {
	store   store
	onEvict func(int)
}

func (c *Cache) evict(victims []uint64) {
	for _, k := range victims {
		v := c.store.Del(k)
		c.onEvict(v)
	}
}
`
	before := strings.Replace(after, "\t\tv := c.store.Del(k)\n\t\tc.onEvict(v)\n", "\t\tv := c.store.Get(k)\n\t\tc.onEvict(v)\n\t\tc.store.Del(k)\n", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": goMod, "cache/cache.go": before},
		map[string]string{"cache/cache.go": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	// The Del the fix moved is still called: a call of it is proposed
	// only if it fires on the revert, which it does not (the code before
	// the fix calls Del too).
	assert.Equal(t, []string{"forbid (*Cache).evict (store).Get"}, proposalsOf(s), "left out: %v", s.Rejected)

	set, _ := printedSet(t, s)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}

// taskflow/taskflow 5a81bc9 and 99863a5: a promise set while the
// taskflow's mutex is held wakes a waiter that may destroy the taskflow,
// mutex included; the fix sets it after `lock.unlock()`. suggest
// proposes excludes: the promise's function must never run with the
// mutex held, read with the files that define it (the method is defined
// in another header, which the rule needs to find its target).
func TestSuggestExcludesCallMovedAfterUnlock(t *testing.T) {
	topology := `#include <mutex>

struct Topology {
  void carry_out_promise();
  int pending;
};

inline void Topology::carry_out_promise() {
  pending = 0;
}
`
	before := `#include <mutex>
#include "topology.hpp"

struct Flow {
  std::mutex mutex;
  Topology* front;
};

void tear_down(Flow& f) {
  std::unique_lock<std::mutex> lock(f.mutex);
  Topology* t = f.front;
  t->carry_out_promise();
  f.front = nullptr;
  lock.unlock();
  log_done();
}
`
	after := strings.Replace(before, "  t->carry_out_promise();\n  f.front = nullptr;\n  lock.unlock();\n", "  f.front = nullptr;\n  lock.unlock();\n  t->carry_out_promise();\n", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"core/topology.hpp": topology, "core/executor.hpp": before},
		map[string]string{"core/executor.hpp": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, []string{"excludes carry_out_promise f.mutex"}, proposalsOf(s), "left out: %v", s.Rejected)
	assert.Equal(t, "core/executor.hpp", s.Proven[0].Files)
	assert.Equal(t, []string{"core/topology.hpp"}, s.Proven[0].MoreFiles, "the header that defines the target")

	set, printed := printedSet(t, s)
	assert.Contains(t, printed, "    files: [core/executor.hpp, core/topology.hpp]\n")
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}

// gabime/spdlog 8512000 and a4e9917: the definitions of a header-only
// library's -inl.h files sit behind object-like macros
// (`bool SPDLOG_INLINE thread_pool::process_next_msg_()`, a `SPDLOG_TRY`
// block) that the grammar cannot read unexpanded, so the definition does
// not parse and no rule on it can verify. The repository defines the
// macros, and erasing them is what lets the file parse: suggest reads
// the file with them erased, and its proposals carry them as `erase`.
// The hunk is then code, not a declaration.
func TestSuggestErasesDeclarationMacros(t *testing.T) {
	common := "#pragma once\n#ifdef LIB_HEADER_ONLY\n#  define LIB_INLINE inline\n#else\n#  define LIB_INLINE\n#endif\n#define LIB_TRY try\n#define LIB_CATCH catch (...) {}\n"
	before := `#include "common.h"

struct queue {
  void dequeue_for(int* out, int timeout);
  void dequeue(int* out);
};

struct pool {
  queue q_;
  bool next();
  void stop();
};

void LIB_INLINE pool::stop()
{
    LIB_TRY
    {
        next();
    }
    LIB_CATCH
}

bool LIB_INLINE pool::next()
{
    int msg = 0;
    q_.dequeue_for(&msg, 10);
    return msg != 0;
}
`
	after := strings.Replace(before, "q_.dequeue_for(&msg, 10);", "q_.dequeue(&msg);", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"lib/common.h": common, "lib/pool-inl.h": before},
		map[string]string{"lib/pool-inl.h": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, []string{"call pool::next q_.dequeue", "forbid pool::next q_.dequeue_for"}, proposalsOf(s), "left out: %v", s.Rejected)
	assert.Equal(t, []string{"LIB_INLINE", "LIB_TRY", "LIB_CATCH"}, s.Proven[0].Erase)

	set, printed := printedSet(t, s)
	assert.Contains(t, printed, "    erase: [LIB_INLINE, LIB_TRY, LIB_CATCH]\n")
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	require.Len(t, rep.Hunks, 1)
	assert.Equal(t, Caught, rep.Hunks[0].Verdict, "a hunk in a body behind the macro is code")
}

// xacrimon/dashmap 488dbfa: `self.len()` called inside a for_each
// closure while the closure holds a shard's write lock deadlocks (len
// read-locks every shard); the fix reads the locked shard's own length.
// The removed call is in a closure, which does not run where it is
// written but might run: forbid counts such a call, so suggest proposes
// it.
func TestSuggestForbidRemovedCallInClosure(t *testing.T) {
	before := `use std::sync::RwLock;

pub struct Map {
    shards: Vec<RwLock<Vec<u32>>>,
}

impl Map {
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.read().unwrap().len()).sum()
    }

    fn shrink(&self) {
        self.shards.iter().for_each(|s| {
            s.write().unwrap().truncate(self.len());
        });
    }
}
`
	after := strings.Replace(before, "            s.write().unwrap().truncate(self.len());\n", "            let mut shard = s.write().unwrap();\n            let size = shard.len();\n            shard.truncate(size);\n", 1)
	require.NotEqual(t, before, after)
	dir := ruletest.GitRepo(t,
		map[string]string{"src/lib.rs": before},
		map[string]string{"src/lib.rs": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{"forbid Map::shrink self.len"}, proposalsOf(s), "left out: %v", s.Rejected)

	assertRevertCaught(t, s, dir)
}
