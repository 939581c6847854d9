package raft

import "sync"

// Index keeps nodes in a tree whose methods take a pointer receiver: a
// call of one that writes nothing through it is a read.
type Index struct {
	mu   sync.RWMutex
	tree tree
}

type tree struct{ root *node }

type node struct {
	left, right *node
	key         int
}

// find only reads, through a local it derives from the receiver and a
// method of the node that returns a pointer into the tree.
func (t *tree) find(k int) *node {
	x := t.root
	for x != nil && x.key != k {
		x = x.next(k)
	}
	return x
}

func (x *node) next(k int) *node {
	if k < x.key {
		return x.left
	}
	return x.right
}

// slot returns the address of the link that holds k: it writes nothing,
// but its result points into the tree.
func (t *tree) slot(k int) **node {
	p := &t.root
	for *p != nil && (*p).key != k {
		if k < (*p).key {
			p = &(*p).left
		} else {
			p = &(*p).right
		}
	}
	return p
}

// each returns an iterator that reads the tree when it is called.
func (t *tree) each() func(func(*node)) {
	return func(yield func(*node)) {
		for x := t.root; x != nil; x = x.left {
			yield(x)
		}
	}
}

// insert writes through a local it derived from the receiver.
func (t *tree) insert(n *node) {
	x := t.root
	for x.left != nil {
		x = x.left
	}
	x.left = n
}

// link writes through the address slot returns.
func (t *tree) link(n *node) {
	*t.slot(n.key) = n
}

// reset hands the receiver to a function that writes through it.
func (t *tree) reset() { clearTree(t) }

func clearTree(t *tree) { t.root = nil }

// walk calls itself: a summary in the making counts as a write, to be
// safe.
func (t *tree) walk(n int) {
	if n > 0 {
		t.walk(n - 1)
	}
}

// Find, Has and Each only read under the read lock: silent.
func (ix *Index) Find(k int) *node {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.tree.find(k)
}

func (ix *Index) Has(k int) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p := ix.tree.slot(k)
	return *p != nil
}

func (ix *Index) Each(f func(*node)) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.tree.each()(f)
}

// Insert calls methods that write under the read lock.
func (ix *Index) Insert(n *node) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.tree.insert(n) // want `writes \(\*raft.Index\).tree \(a call of insert, whose receiver is a pointer\) under a shared lock of ix.mu \(RLock\)`
	ix.tree.link(n)   // want `writes \(\*raft.Index\).tree \(a call of link, whose receiver is a pointer\) under a shared lock`
	ix.tree.reset()   // want `writes \(\*raft.Index\).tree \(a call of reset, whose receiver is a pointer\) under a shared lock`
	ix.tree.walk(1)   // want `writes \(\*raft.Index\).tree \(a call of walk, whose receiver is a pointer\) under a shared lock`
}

// Unlink writes through the address slot returned.
func (ix *Index) Unlink(k int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p := ix.tree.slot(k) // want `writes \(\*raft.Index\).tree \(a call of slot, whose receiver is a pointer\) under a shared lock`
	*p = nil
}

// SlotOut hands the address on, where nothing follows it.
func (ix *Index) SlotOut(k int) **node {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.tree.slot(k) // want `writes \(\*raft.Index\).tree \(a call of slot, whose receiver is a pointer\) under a shared lock`
}

// Bound takes a method value: it may run anywhere.
func (ix *Index) Bound() func(int) *node {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.tree.find // want `writes \(\*raft.Index\).tree \(a call of find, whose receiver is a pointer\) under a shared lock`
}
