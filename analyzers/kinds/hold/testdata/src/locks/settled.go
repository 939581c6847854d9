package locks

import (
	"errors"
	"io"
	"sync"
)

// Package-level variables read after the unlock: settled ones (nothing
// writes them once the program is initialised) touch nothing the lock
// protects; any other is shared state.

type pool struct {
	mu    sync.Mutex
	items map[int]int
}

var errClosed = errors.New("pool closed")

// ErrGone is exported, but of type error: a sentinel.
var ErrGone = errors.New("gone")

// names is filled in init only.
var names [2]string

func init() { names[0], names[1] = "first", "second" }

// errReset is reassigned by a function of the package.
var errReset = errors.New("reset")

func resetError(msg string) { errReset = errors.New(msg) }

// limit has its address taken, so it may be written through it.
var limit = 10

var limitRef = &limit

// Limit is exported and not an error: an importer may write it.
var Limit = 10

// lazy is written by a literal that init registers: it may run later.
var lazy = errors.New("lazy")

var hooks []func()

func init() { hooks = append(hooks, func() { lazy = nil }) }

type stats struct{ n int }

func (s *stats) bump() { s.n++ }

// counter's pointer method takes its address.
var counter stats

func count() { counter.bump() }

// hits is incremented by a function of the package.
var hits int

func hit() { hits++ }

// theirs is another package's error variable that this package writes.
func setNoProgress() { io.ErrNoProgress = errors.New("none") }

// --- settled variables: silent ---

func (p *pool) take(k int) (int, error) {
	p.mu.Lock()
	v, ok := p.items[k]
	p.mu.Unlock()
	if !ok {
		return 0, errClosed
	}
	return v, nil
}

func (p *pool) read(k int) (int, error) {
	if k < 0 {
		return 0, ErrGone // a guard clause before the lock
	}
	p.mu.Lock()
	v, ok := p.items[k]
	p.mu.Unlock()
	if !ok {
		return 0, io.EOF
	}
	return v, nil
}

func (p *pool) name(k int) string {
	p.mu.Lock()
	_, ok := p.items[k]
	p.mu.Unlock()
	if ok && k < 2 {
		return names[k]
	}
	return ""
}

// --- variables written after initialisation: each fires ---

func (p *pool) reset(k int) error {
	p.mu.Lock()
	_, ok := p.items[k]
	p.mu.Unlock()
	if !ok {
		return errReset // want `invariant written-unexported: \(locks.pool\).mu is not held here`
	}
	return nil
}

func (p *pool) limited(k int) int {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	if n > k {
		return limit // want `invariant address-taken: \(locks.pool\).mu is not held here`
	}
	return n
}

func (p *pool) exported() int {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	return n + Limit // want `invariant exported-not-error: \(locks.pool\).mu is not held here`
}

func (p *pool) late() error {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	if n == 0 {
		return lazy // want `invariant written-in-literal: \(locks.pool\).mu is not held here`
	}
	return nil
}

func (p *pool) counted() int {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	return n + counter.n // want `invariant pointer-method: \(locks.pool\).mu is not held here`
}

func (p *pool) noProgress() error {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	if n == 0 {
		return io.ErrNoProgress // want `invariant written-elsewhere: \(locks.pool\).mu is not held here`
	}
	return nil
}

func (p *pool) hitCount() int {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	return n + hits // want `invariant incremented: \(locks.pool\).mu is not held here`
}
