package raft

import "sync"

// Store's deps are guarded by its mu; each of its conns points back to
// it (a back-pointer of another type), and a compactDef descriptor holds
// one of its tiers (a handle of another type).
type Store struct {
	mu    sync.Mutex
	deps  map[*conn]int
	conns []*conn
	tiers []*Tier
}

type conn struct {
	store *Store
}

// dropLocked needs its callers to hold c.store.mu.
func (c *conn) dropLocked() { // want dropLocked:"guarded_by store-deps param -1.store"
	delete(c.store.deps, c)
}

// Close holds s.mu and calls dropLocked on each conn, which needs
// c.store.mu: c.store is a back-pointer to s, which the analysis takes
// for s, whose same lock is held (a near match).
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.dropLocked()
	}
}

// Leak holds no lock at all: no near match.
func (s *Store) Leak() {
	for _, c := range s.conns {
		c.dropLocked() // want `calls \(\*raft.conn\).dropLocked, which writes \(\*raft.Store\).deps, without c.store.mu held: \(\*raft.Store\).Leak`
	}
}

// Tier's tables are guarded by the mutex it embeds.
type Tier struct {
	sync.RWMutex
	tables []int
	next   *Tier
}

type compactDef struct {
	this *Tier
}

// Pick holds s.tiers[0]'s lock and reads cd.this.tables: cd.this is a
// handle of another type, taken for the level whose lock is held.
func (s *Store) Pick(cd *compactDef) int {
	s.tiers[0].RLock()
	defer s.tiers[0].RUnlock()
	return len(cd.this.tables)
}

// PickWrite holds it shared only: a write needs more than the near match
// gives: reported, as nothing shows that its callers hold cd.this's lock.
func (s *Store) PickWrite(cd *compactDef) { // want PickWrite:"guarded_by tier-tables param 0.this \\(exclusive\\)"
	s.tiers[0].RLock()
	defer s.tiers[0].RUnlock()
	cd.this.tables = nil // want `exported method \(\*raft.Store\).PickWrite writes \(\*raft.Tier\).tables without cd.this.RWMutex held`
}

// Neighbour holds l's lock and reads l.next.tables: a link of the
// level's own type joins another level, never taken for l.
func (l *Tier) Neighbour() int { // want Neighbour:"guarded_by tier-tables param -1.next"
	l.RLock()
	defer l.RUnlock()
	return len(l.next.tables) // want `exported method \(\*raft.Tier\).Neighbour reads \(\*raft.Tier\).tables without l.next.RWMutex held`
}
