// Package raft holds the guarded fields of the tests.
package raft

import (
	"sort"
	"sync"
	"sync/atomic"
)

type Peer struct{ addr string }

type Raft struct {
	mu    sync.RWMutex
	peers map[string]*Peer
	state int
	Term  int
	other *Raft
	wg    sync.WaitGroup
	list  []*Peer
}

// Peers reads under the read lock: silent.
func (r *Raft) Peers() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.peers)
}

// SetPeer writes under the write lock: silent.
func (r *Raft) SetPeer(id string, p *Peer) {
	r.mu.Lock()
	r.peers[id] = p
	r.mu.Unlock()
}

// Racy reads without the lock, in an exported method.
func (r *Raft) Racy() int { // want Racy:"guarded_by peers-guarded param -1"
	return len(r.peers) // want `exported method \(\*raft.Raft\).Racy reads \(\*raft.Raft\).peers without r.mu held, and nothing shows its callers hold it: \(\*raft.Raft\).Racy`
}

// WriteUnderRead writes under the read lock.
func (r *Raft) WriteUnderRead(id string) {
	r.mu.RLock()
	delete(r.peers, id) // want `writes \(\*raft.Raft\).peers \(delete\) under a shared lock of r.mu \(RLock\); writing needs it exclusive \(Lock\)`
	r.mu.RUnlock()
}

// AfterUnlock reads after giving the lock up.
func (r *Raft) AfterUnlock() int { // want AfterUnlock:"guarded_by peers-guarded param -1"
	r.mu.Lock()
	n := len(r.peers)
	r.mu.Unlock()
	return n + len(r.peers) // want `exported method \(\*raft.Raft\).AfterUnlock reads`
}

// OtherValue holds its own lock, not the other value's: its callers must
// hold r.other.mu.
func (r *Raft) OtherValue() int { // want OtherValue:"guarded_by peers-guarded param -1.other"
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.other.peers) // want `^invariant peers-guarded: exported method \(\*raft.Raft\).OtherValue reads \(\*raft.Raft\).peers without r.other.mu held`
}

// OtherLocked holds the other value's lock.
func (r *Raft) OtherLocked() int {
	r.other.mu.Lock()
	defer r.other.mu.Unlock()
	return len(r.other.peers)
}

// helperLocked needs its callers to hold the lock: its fact says so.
func (r *Raft) helperLocked() { // want helperLocked:"guarded_by peers-guarded param -1 \\(exclusive\\): \\(\\*raft.Raft\\).helperLocked writes"
	r.peers = map[string]*Peer{}
}

// Reset calls the helper under the lock: silent.
func (r *Raft) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.helperLocked()
}

// ResetRacy calls the helper without the lock.
func (r *Raft) ResetRacy() { // want ResetRacy:"guarded_by peers-guarded param -1"
	r.helperLocked() // want `exported method \(\*raft.Raft\).ResetRacy calls \(\*raft.Raft\).helperLocked, which writes \(\*raft.Raft\).peers, without r.mu held, and nothing shows its callers hold it: \(\*raft.Raft\).ResetRacy → \(\*raft.Raft\).helperLocked`
}

// ResetShared calls the writing helper under the read lock.
func (r *Raft) ResetShared() {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.helperLocked() // want `calls \(\*raft.Raft\).helperLocked, which writes \(\*raft.Raft\).peers, under a shared lock of r.mu \(RLock\)`
}

// Spawn starts a goroutine that touches the field with no lock.
func (r *Raft) Spawn() {
	r.mu.Lock()
	defer r.mu.Unlock()
	go func() {
		r.peers = nil // want `goroutine writes \(\*raft.Raft\).peers without r.mu held: it starts holding no lock`
	}()
	go r.helperLocked() // want `goroutine started in \(\*raft.Raft\).Spawn runs \(\*raft.Raft\).helperLocked, which writes \(\*raft.Raft\).peers, without r.mu held`
	go func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.peers = nil
	}()
}

// Stored keeps a closure for later: it holds no lock when it runs.
func (r *Raft) Stored() func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	return func() {
		_ = r.peers["x"] // want `function literal that does not run where it is written \(stored, returned or passed on\) reads \(\*raft.Raft\).peers without r.mu held`
	}
}

// InPlace runs a literal where it is written: it has the lock.
func (r *Raft) InPlace() {
	r.mu.Lock()
	defer r.mu.Unlock()
	func() {
		r.peers["a"] = nil
	}()
	each(func() { r.peers["b"] = nil })
}

// each calls f before it returns: a runner.
func each(f func()) { f() }

// Deferred writes in a deferred literal, which runs while the deferred
// unlock registered before it has not run yet.
func (r *Raft) Deferred() {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() { r.peers = nil }()
}

// DeferredAfter: the unlock registered after the literal runs first.
func (r *Raft) DeferredAfter() { // want DeferredAfter:"guarded_by peers-guarded param -1"
	r.mu.Lock()
	defer func() { r.peers = nil }() // want `writes \(\*raft.Raft\).peers without r.mu held`
	defer r.mu.Unlock()
}

// NewRaft initialises a value nobody else sees yet: silent.
func NewRaft() *Raft {
	r := &Raft{peers: map[string]*Peer{}}
	r.peers["self"] = &Peer{}
	r.state = 1
	r.helperLocked()
	return r
}

// NewShared hands the value over, then writes it without the lock.
func NewShared(ch chan *Raft) {
	r := new(Raft)
	r.peers = map[string]*Peer{}
	ch <- r
	r.peers["late"] = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
}

// setup is an init function of the invariant: silent.
func setup(r *Raft) {
	r.peers = map[string]*Peer{}
}

// State reads the exclusive-read field under the read lock.
func (r *Raft) State() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.state // want `reads \(\*raft.Raft\).state under a shared lock of r.mu \(RLock\); a read \(reads: exclusive\) needs it exclusive \(Lock\)`
}

// StateLocked reads it under the write lock: silent.
func (r *Raft) StateLocked() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// Writes of every sort, each without the lock in an unexported function
// whose caller is not known to hold it.
func writes(rs []*Raft) {
	for _, r := range rs {
		r.state++     // want `writes \(\*raft.Raft\).state without r.mu held`
		p := &r.state // want `writes \(\*raft.Raft\).state \(taking its address\) without r.mu held`
		_ = p
		_ = append(r.list, nil) // want `writes \(\*raft.Raft\).list \(append\) without r.mu held`
		r.peers["k"] = nil      // want `writes \(\*raft.Raft\).peers without r.mu held`
		_ = r.peers["k"]        // want `reads \(\*raft.Raft\).peers without r.mu held`
		r.wg.Add(1)             // want `writes \(\*raft.Raft\).wg \(a call of Add, whose receiver is a pointer\) without r.mu held`
	}
}

// Alias locks through a pointer alias of the value: silent.
func (r *Raft) Alias() {
	q := r
	q.mu.Lock()
	defer q.mu.Unlock()
	r.peers = nil
}

// Branch holds the lock on one path only.
func (r *Raft) Branch(b bool) { // want Branch:"guarded_by peers-guarded param -1"
	if b {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	r.peers = nil // want `exported method \(\*raft.Raft\).Branch writes`
}

// Client's cache is guarded by a package lock.
type Client struct{ cache map[string]string }

var cacheMu sync.Mutex

func (c *Client) Get(k string) string {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	return c.cache[k]
}

func (c *Client) Put(k, v string) { // want Put:"guarded_by cache-pkg param -2"
	c.cache[k] = v // want `exported method \(\*raft.Client\).Put writes \(\*raft.Client\).cache without raft.cacheMu held`
}

// Log embeds its mutex.
type Log struct {
	sync.Mutex
	entries []string
}

func (l *Log) Append(e string) {
	l.Lock()
	l.entries = append(l.entries, e)
	l.Unlock()
}

func (l *Log) Len() int { // want Len:"guarded_by embedded param -1"
	return len(l.entries) // want `exported method \(\*raft.Log\).Len reads \(\*raft.Log\).entries without l.Mutex held`
}

// Dead code does not run: silent.
func (r *Raft) Dead() {
	if false {
		r.peers = nil
	}
}

// Counter's hits are loaded atomically: an atomic operation needs no lock.
type Counter struct {
	mu   sync.Mutex
	hits atomic.Int64
}

func (c *Counter) Hits() int64 { return c.hits.Load() }

// Hit adds without the lock: an atomic write is still a write.
func (c *Counter) Hit() { // want Hit:"guarded_by atomic-hits param -1"
	c.hits.Add(1) // want `writes \(\*raft.Counter\).hits \(an atomic Add\) without c.mu held`
}

// lock and unlock are helpers: the analysis of their bodies says so.
func (r *Raft) lock()   { r.mu.Lock() }
func (r *Raft) unlock() { r.mu.Unlock() }

// ViaHelpers locks through them: silent.
func (r *Raft) ViaHelpers() {
	r.lock()
	defer r.unlock()
	r.peers = nil
}

// AfterHelperUnlock writes after the helper gave the lock up.
func (r *Raft) AfterHelperUnlock() { // want AfterHelperUnlock:"guarded_by peers-guarded param -1"
	r.lock()
	r.unlock()
	r.peers = nil // want `exported method \(\*raft.Raft\).AfterHelperUnlock writes`
}

// Embedded reaches the lock through the embedded struct's name: silent.
type Outer struct {
	Inner
}

type Inner struct {
	mu  sync.Mutex
	val int
}

func (o *Outer) Set() {
	o.Inner.mu.Lock()
	defer o.Inner.mu.Unlock()
	o.val = 1
}

// Config's name is written only when the value is built: its reads need
// no lock.
type Config struct {
	mu   sync.Mutex
	name string
	n    int
}

func NewConfig() *Config {
	c := &Config{}
	c.name = "x"
	return c
}

func (c *Config) Name() string { return c.name }

// N is written under the lock elsewhere, so its reads need it.
func (c *Config) N() int { // want N:"guarded_by n-guarded param -1"
	return c.n // want `exported method \(\*raft.Config\).N reads`
}

func (c *Config) SetN(n int) {
	c.mu.Lock()
	c.n = n
	c.mu.Unlock()
}

// NewDeferred writes the fresh value before the deferred call that hands
// it over runs: silent.
func NewDeferred() {
	r := &Raft{}
	defer r.Reset()
	r.peers = map[string]*Peer{}
}

// Slots are atomics: taking an element's address to load it, or the
// array's length, touches no guarded memory.
type Slots struct {
	mu    sync.Mutex
	slots [4]atomic.Pointer[Peer]
}

func (s *Slots) First() *Peer {
	for i := range s.slots {
		_ = &s.slots[i]
		if p := s.slots[i].Load(); p != nil {
			return p
		}
	}
	return nil
}

// withLock runs f holding l: a locking runner.
func withLock(l sync.Locker, f func()) {
	l.Lock()
	defer l.Unlock()
	f()
}

// ViaRunner writes in a literal the runner runs under the value's lock:
// silent.
func (l *Log) ViaRunner() {
	withLock(l, func() { l.entries = nil })
}

// RunnerOther holds another value's lock.
func (l *Log) RunnerOther(o *Log) { // want RunnerOther:"guarded_by embedded param -1"
	withLock(o, func() {
		l.entries = nil // want `writes \(\*raft.Log\).entries without l.Mutex held`
	})
}

// Levels holds logs by index. A pointer taken from an element with a
// variable index has no key of its own: the variable is the key, for the
// access and for the lock taken through it. Silent.
type Levels struct {
	logs []*Log
}

func (s *Levels) Sizes() int {
	n := 0
	for i := len(s.logs) - 1; i >= 0; i-- {
		l := s.logs[i]
		l.Lock()
		n += len(l.entries)
		l.Unlock()
	}
	return n
}

// SizesOther locks one element and reads another: flagged.
func (s *Levels) SizesOther(i, j int) int {
	l, m := s.logs[i], s.logs[j]
	l.Lock()
	defer l.Unlock()
	return len(m.entries) // want `reads \(\*raft.Log\).entries without m.Mutex held`
}

// Sorted sorts under the lock: sort.Slice calls less only before it
// returns, so the literal holds what the call site holds. Silent.
func (l *Log) Sorted() {
	l.Lock()
	defer l.Unlock()
	sort.Slice(l.entries, func(i, j int) bool { return l.entries[i] < l.entries[j] })
	_ = sort.Search(len(l.entries), func(i int) bool { return l.entries[i] >= "m" })
}

// SortedUnlocked sorts without it: the literal holds nothing either.
func (l *Log) SortedUnlocked() { // want SortedUnlocked:"guarded_by embedded param -1"
	sort.Slice(l.entries, func(i, j int) bool { return l.entries[i] < l.entries[j] }) // want `exported method \(\*raft.Log\).SortedUnlocked reads \(\*raft.Log\).entries without l.Mutex held`
}

// SortedLater stores the literal: it escapes, and holds no lock however
// the place it is written holds one.
func (l *Log) SortedLater() func(i, j int) bool {
	l.Lock()
	defer l.Unlock()
	return func(i, j int) bool { return l.entries[i] < l.entries[j] } // want `function literal that does not run where it is written \(stored, returned or passed on\) reads \(\*raft.Log\).entries without l.Mutex held` `function literal that does not run where it is written \(stored, returned or passed on\) reads \(\*raft.Log\).entries without l.Mutex held`
}

// sortIndex reads the entries only in the literal sort.Slice runs: the
// need passes to its callers, as an access in its own body would.
func (l *Log) sortIndex(idx []int) { // want sortIndex:"guarded_by embedded param -1"
	sort.Slice(idx, func(i, j int) bool { return l.entries[idx[i]] < l.entries[idx[j]] })
}

// SortIndexHeld holds the lock for it: silent.
func (l *Log) SortIndexHeld(idx []int) {
	l.Lock()
	defer l.Unlock()
	l.sortIndex(idx)
}

// compaction locks two logs through its own helper: lockBoth takes the
// lock of values reached from its receiver (c.this, c.next), and its
// callers hold them after the call. Silent.
type compaction struct {
	this, next *Log
}

func (c *compaction) lockBoth() {
	c.this.Lock()
	c.next.Lock()
}

func (c *compaction) unlockBoth() {
	c.next.Unlock()
	c.this.Unlock()
}

func (c *compaction) Sizes() int {
	c.lockBoth()
	defer c.unlockBoth()
	return len(c.this.entries) + len(c.next.entries)
}

// SizesAfter reads after giving them up.
func (c *compaction) SizesAfter() int { // want SizesAfter:"guarded_by embedded param -1.this"
	c.lockBoth()
	c.unlockBoth()
	return len(c.this.entries) // want `exported method \(\*raft.compaction\).SizesAfter reads \(\*raft.Log\).entries without c.this.Mutex held`
}

// markFailed takes the lock and gives it up when it returns, through a
// deferred unlock: its callers do not hold the lock after it.
func (r *Raft) markFailed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state = 1
}

// FailNow writes after a call that locks and unlocks for itself, as
// testing's FailNow does after Fail: the lock is not held there.
func (r *Raft) FailNow() { // want FailNow:"guarded_by state-exclusive param -1"
	r.markFailed()
	r.state = 2 // want `exported method \(\*raft.Raft\).FailNow writes \(\*raft.Raft\).state without r.mu held`
}

// FailNowLocked takes the lock itself after the call: silent.
func (r *Raft) FailNowLocked() {
	r.markFailed()
	r.mu.Lock()
	r.state = 2
	r.mu.Unlock()
}

// peersOf reads the field under the lock its caller passes on.
func (r *Raft) peersOf() int { // want peersOf:"guarded_by peers-guarded param -1 \\(shared\\)"
	return len(r.peersLocked())
}

// peersLocked reads the field; its callers hold r.mu.
func (r *Raft) peersLocked() map[string]*Peer { // want peersLocked:"guarded_by peers-guarded param -1 \\(shared\\)"
	return r.peers
}

// DialLater reads the field through two calls in a goroutine, which
// holds no lock: the finding names the whole path down to the access.
func (r *Raft) DialLater() {
	go func() {
		_ = r.peersOf() // want `goroutine calls \(\*raft.Raft\).peersOf, which reads \(\*raft.Raft\).peers, without r.mu held: it starts holding no lock: \(\*raft.Raft\).DialLater → \(\*raft.Raft\).peersOf → \(\*raft.Raft\).peersLocked \(why`
	}()
}
