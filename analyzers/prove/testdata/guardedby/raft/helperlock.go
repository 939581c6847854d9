package raft

import "sync"

// Pipe takes its lock only through helpers, as net/http's connReader
// does (cr.lock(), cr.unlock()): the reverts are made at the helper's
// call, and the deferred or explicit helper release is the unlock they
// move or delete.
type Pipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	inRead bool
	closed bool
}

// lock takes mu for its caller.
func (p *Pipe) lock() {
	p.mu.Lock()
	if p.cond == nil {
		p.cond = sync.NewCond(&p.mu)
	}
}

// unlock gives it up.
func (p *Pipe) unlock() { p.mu.Unlock() }

// Close marks the pipe closed under a deferred helper release.
func (p *Pipe) Close() {
	p.lock()
	defer p.unlock()
	p.closed = true
	p.cond.Broadcast()
}

// Begin starts a read, releasing explicitly.
func (p *Pipe) Begin() bool {
	p.lock()
	if p.closed {
		p.unlock()
		return false
	}
	p.inRead = true
	p.unlock()
	return true
}
