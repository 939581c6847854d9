package raft

import (
	"io"
	"sync"
)

// Body is net/http's bodyEOFSignal in small: earlyFn is set where a Body
// is made and never written after, so its reads need no lock; a revert
// that moves one out of the lock changes nothing the rule asks. What the
// guard keeps out is a write of it without the lock.
type Body struct {
	mu      sync.Mutex
	closed  bool
	earlyFn func() error
	rc      io.ReadCloser
}

func NewBody(rc io.ReadCloser, early func() error) *Body {
	return &Body{rc: rc, earlyFn: early}
}

func (b *Body) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if b.earlyFn != nil {
		return b.earlyFn()
	}
	return b.rc.Close()
}

// debugPut is false: the code under it never runs.
const debugPut = false

// ConnPool records where each connection was put back, but only under the
// constant false debugPut, as database/sql's DB.lastPut: no code that
// runs touches lastPut, and its guard constrains nothing.
type ConnPool struct {
	mu      sync.Mutex
	free    []int
	lastPut map[int]string
}

func NewConnPool() *ConnPool {
	return &ConnPool{lastPut: map[int]string{}}
}

func (p *ConnPool) Put(c int, where string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if debugPut {
		p.lastPut[c] = where
	}
	p.free = append(p.free, c)
}
