// Package store takes its locks in the order meta → mmap → Mu.
package store

import "sync"

// Mu is exported: importers take it too.
var Mu sync.Mutex

// Outer comes before every other lock.
var Outer sync.Mutex

// DB has two locks of its own.
type DB struct {
	meta sync.Mutex
	mmap sync.RWMutex
	n    int
}

// Begin takes the locks in order.
func (db *DB) Begin() {
	db.meta.Lock()
	db.mmap.RLock()
	Mu.Lock()
	db.n++
	Mu.Unlock()
	db.mmap.RUnlock()
	db.meta.Unlock()
}

// Sequential takes them one after the other, never nested.
func (db *DB) Sequential() {
	Mu.Lock()
	db.n++
	Mu.Unlock()
	db.meta.Lock()
	db.n++
	db.meta.Unlock()
}

// lockMu takes the innermost lock.
func lockMu() {
	Mu.Lock()
	defer Mu.Unlock()
}

// InOrderThroughCall takes meta, then calls what takes Mu.
func (db *DB) InOrderThroughCall() {
	db.meta.Lock()
	defer db.meta.Unlock()
	lockMu()
}

// Try does not wait for meta: no deadlock, whatever it holds.
func (db *DB) Try() {
	Mu.Lock()
	defer Mu.Unlock()
	if db.meta.TryLock() {
		db.meta.Unlock()
	}
}

// Background takes meta on another goroutine.
func (db *DB) Background() {
	Mu.Lock()
	defer Mu.Unlock()
	go func() {
		db.meta.Lock()
		db.meta.Unlock()
	}()
}

// OuterFirst takes Outer, then the others.
func (db *DB) OuterFirst() {
	Outer.Lock()
	defer Outer.Unlock()
	db.meta.Lock()
	db.meta.Unlock()
}

// Meta takes the meta lock: a function importers call.
func (db *DB) Meta() {
	db.meta.Lock()
	db.n++
	db.meta.Unlock()
}

// relockMeta is called holding Mu, and gives it up before it takes meta.
func (db *DB) relockMeta() {
	Mu.Unlock()
	db.meta.Lock()
	db.n++
	db.meta.Unlock()
	Mu.Lock()
}

// DropsMuFirst holds Mu across a call that gives it up before taking meta:
// no reverse edge.
func (db *DB) DropsMuFirst() {
	Mu.Lock()
	defer Mu.Unlock()
	db.relockMeta()
}

// Reverts.

// Reversed takes meta while holding Mu.
func (db *DB) Reversed() {
	Mu.Lock()
	defer Mu.Unlock()
	db.meta.Lock() // want `invariant meta-before-mu: \(\*store.DB\).Reversed takes \(store.DB\).meta while holding store.Mu \(taken at line 108\); the lock order is \(store.DB\).meta → \(store.DB\).mmap → store.Mu, so \(store.DB\).meta may not be taken while store.Mu is held \(why: Begin takes`
	db.meta.Unlock()
}

// ReadThenMeta takes meta while holding the mmap read lock.
func (db *DB) ReadThenMeta() {
	db.mmap.RLock()
	defer db.mmap.RUnlock()
	db.Meta() // want `\(\*store.DB\).ReadThenMeta calls \(\*store.DB\).Meta while holding \(store.DB\).mmap \(taken at line 116\), and \(\*store.DB\).Meta takes \(store.DB\).meta at store.go:82: \(\*store.DB\).ReadThenMeta → \(\*store.DB\).Meta; the lock order is`
}

// deep reaches meta two calls down.
func (db *DB) deep() { db.Meta() }

// ReversedDeep holds Mu across a call that takes meta further down.
func (db *DB) ReversedDeep() {
	Mu.Lock()
	db.deep() // want `\(\*store.DB\).ReversedDeep calls \(\*store.DB\).deep while holding store.Mu \(taken at line 126\), and \(\*store.DB\).Meta takes \(store.DB\).meta at store.go:82: \(\*store.DB\).ReversedDeep → \(\*store.DB\).deep → \(\*store.DB\).Meta`
	Mu.Unlock()
}

// OneBranch holds Mu on one path to the meta lock.
func (db *DB) OneBranch(c bool) {
	if c {
		Mu.Lock()
		defer Mu.Unlock()
	}
	db.meta.Lock() // want `\(\*store.DB\).OneBranch takes \(store.DB\).meta while holding store.Mu`
	db.meta.Unlock()
}

// DeferredMeta defers a call that takes meta after the unlock of Mu:
// it runs first, under Mu.
func (db *DB) DeferredMeta() {
	Mu.Lock()
	defer Mu.Unlock()
	defer db.Meta() // want `\(\*store.DB\).DeferredMeta calls \(\*store.DB\).Meta while holding store.Mu`
}

var hooks []func()

// Stored stores a closure that reverses the order when it runs.
func (db *DB) Stored() {
	hooks = append(hooks, func() {
		db.mmap.Lock()
		db.meta.Lock() // want `\(\*store.DB\).Stored \(func literal\) takes \(store.DB\).meta while holding \(store.DB\).mmap`
		db.meta.Unlock()
		db.mmap.Unlock()
	})
}

// OuterLast takes Outer while holding another lock.
func (db *DB) OuterLast() {
	var local sync.Mutex
	local.Lock()
	Outer.Lock() // want `invariant outer-first: \(\*store.DB\).OuterLast takes store.Outer while holding the unlisted lock local \(taken at line 164\); the lock order is store.Outer, then every other lock`
	Outer.Unlock()
	local.Unlock()
}
