// Package p is a small encoder pool with the hazards guardlint's
// invariants guard: a retain, a release routed through one function, an
// eval lock, a read-locked registry and a bounds check before a read.
package p

import "sync"

// Encoder is handed out by the pool at +0.
type Encoder struct{ refs int }

func (e *Encoder) retain()  { e.refs++ }
func (e *Encoder) release() { e.refs-- }

// Buffer has a retain too: a call on it is the wrong receiver.
type Buffer struct{ refs int }

func (b *Buffer) retain() { b.refs++ }

// Pool hands encoders out.
type Pool struct{ free []*Encoder }

func (p *Pool) get() *Encoder {
	if len(p.free) == 0 {
		return &Encoder{}
	}
	e := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return e
}

// CommandBuffer records work on its active encoder.
type CommandBuffer struct {
	pool   *Pool
	active *Encoder
	lane   int
}

func (cb *CommandBuffer) getOrCreateEncoder() *Encoder {
	if cb.active != nil {
		return cb.active
	}
	enc := cb.pool.get()
	enc.retain()
	cb.active = enc
	return enc
}

func (cb *CommandBuffer) endActiveEncoder() {
	if cb.active == nil {
		return
	}
	cb.active.release()
	cb.active = nil
}

func (cb *CommandBuffer) reset() {
	cb.endActiveEncoder()
	cb.lane = -1
}

// Close ends the encoder itself and then resets, which ends it again.
func (cb *CommandBuffer) Close() {
	cb.endActiveEncoder()
	cb.reset()
}

var evalMu sync.Mutex

// Eval runs under the eval lock.
func Eval(cb *CommandBuffer) int {
	evalMu.Lock()
	defer evalMu.Unlock()
	cb.getOrCreateEncoder()
	return cb.lane
}

type registry struct {
	mu sync.RWMutex
	m  map[int]*CommandBuffer
}

func (r *registry) lookup(k int) *CommandBuffer {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.m[k]
}

// Table is read after a bounds check.
type Table struct{ rows []int }

func checkBounds(t *Table, i int) {
	if i < 0 || i >= len(t.rows) {
		panic("out of range")
	}
}

func (t *Table) read(i int) int { return t.rows[i] }

// Load checks the bounds, then reads.
func Load(t *Table, i int) int {
	checkBounds(t, i)
	return t.read(i)
}

// LoadFirst checks the bounds of row 0 as well, after the one that
// matters.
func LoadFirst(t *Table, i int) int {
	checkBounds(t, i)
	n := len(t.rows)
	checkBounds(t, 0)
	return t.read(i) + t.read(0)*n
}

// Encode dispatches under the eval lock, through a helper.
func Encode(cb *CommandBuffer) {
	evalMu.Lock()
	defer evalMu.Unlock()
	encodeLocked(cb)
}

func encodeLocked(cb *CommandBuffer) { cb.dispatchLocked() }

func (cb *CommandBuffer) dispatchLocked() { cb.lane++ }

// Flush hands the queued work over under the eval lock.
func Flush(cb *CommandBuffer) {
	evalMu.Lock()
	defer evalMu.Unlock()
	flushLocked(cb)
}

// flushLocked touches the shared encoder: its callers hold evalMu.
//
//guardlint:requires evalMu
func flushLocked(cb *CommandBuffer) { cb.lane = 0 }

var counted int

// Count takes the lock's address before its first work: a declaration
// that touches nothing the lock protects.
func Count() {
	evalMu.Lock()
	defer evalMu.Unlock()
	held := &evalMu
	_ = held
	counted++
}
