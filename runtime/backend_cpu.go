package runtime

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// cpuBackend implements the device on the host with the same concurrency
// semantics as CUDA: a lane is a goroutine draining a queue, an event is a
// channel closed when the lane reaches the record, and a wait is a queue
// item that blocks its lane until that channel closes. Work on different
// lanes therefore really runs concurrently, and a missing barrier really
// lets a reader see stale data.
//
// Device memory is a []uint32 of float32 bits accessed only with atomic
// loads and stores, as GPU global memory has no undefined behaviour on
// concurrent access: an unordered reader reads old values, and the race
// detector stays quiet about what the runtime's own guards must catch.
//
// Each ordinal is an independent device: its own memory, lanes and events,
// shared with no other cpuBackend.
type cpuBackend struct {
	ordinal int
	limit   int

	mu     sync.RWMutex
	mems   map[mem][]uint32
	used   int
	nextID mem
	lanes  map[lane]*cpuLane
	events map[event]*cpuEvent
	nextH  uintptr
}

// cpuLane runs queued work in order on its own goroutine. mu orders sends
// against closing, so that work queued on a lane being destroyed is an
// error, not a send on a closed channel.
type cpuLane struct {
	mu     sync.Mutex
	closed bool
	q      chan func()
	done   chan struct{}
}

// push queues f, blocking while the queue is full.
func (l *cpuLane) push(f func()) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("cpu lane: %w: lane destroyed", ErrInvalidArgument)
	}
	l.q <- f
	return nil
}

// stop closes the queue and waits for the queued work to finish.
func (l *cpuLane) stop() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.q)
	}
	l.mu.Unlock()
	<-l.done
}

// cpuEvent holds the signal of its most recent record; nil means complete.
type cpuEvent struct {
	mu  sync.Mutex
	cur chan struct{}
}

// cpuLaneDepth bounds a lane's queue; a full queue blocks the dispatcher as
// a full CUDA launch queue does.
const cpuLaneDepth = 1024

// newCPUBackend returns CPU device ordinal with limit bytes of device
// memory.
func newCPUBackend(ordinal, limit int) *cpuBackend {
	return &cpuBackend{
		ordinal: ordinal,
		limit:   limit,
		mems:    map[mem][]uint32{},
		nextID:  256, // never 0, so a zero mem is never valid
		lanes:   map[lane]*cpuLane{},
		events:  map[event]*cpuEvent{},
		nextH:   1,
	}
}

// kind implements backend.
func (b *cpuBackend) kind() Backend { return BackendCPU }

// describe implements backend.
func (b *cpuBackend) describe() string { return fmt.Sprintf("cpu:%d (goroutine lanes)", b.ordinal) }

// alloc implements backend.
func (b *cpuBackend) alloc(bytes int) (mem, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+bytes > b.limit {
		return 0, fmt.Errorf("cpu alloc %d bytes with %d of %d in use: %w", bytes, b.used, b.limit, ErrOutOfMemory)
	}
	id := b.nextID
	b.nextID += mem(bytes+255) &^ 255
	b.mems[id] = make([]uint32, bytes/4)
	b.used += bytes
	return id, nil
}

// free implements backend.
func (b *cpuBackend) free(m mem) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	d, ok := b.mems[m]
	if !ok {
		return fmt.Errorf("cpu free %#x: %w: unknown allocation", m, ErrInvalidArgument)
	}
	b.used -= 4 * len(d)
	delete(b.mems, m)
	return nil
}

// words returns the memory of m; the slice stays valid after a free, as the
// backing array is only dropped, never reused.
func (b *cpuBackend) words(m mem) ([]uint32, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	d, ok := b.mems[m]
	if !ok {
		return nil, fmt.Errorf("cpu memory %#x: %w: unknown allocation", m, ErrInvalidArgument)
	}
	return d, nil
}

// upload implements backend.
func (b *cpuBackend) upload(dst mem, src []float32) error {
	d, err := b.words(dst)
	if err != nil {
		return err
	}
	if len(src) > len(d) {
		return fmt.Errorf("cpu upload %d elements into %d: %w", len(src), len(d), ErrLength)
	}
	for i, v := range src {
		atomic.StoreUint32(&d[i], math.Float32bits(v))
	}
	return nil
}

// download implements backend.
func (b *cpuBackend) download(dst []float32, src mem) error {
	d, err := b.words(src)
	if err != nil {
		return err
	}
	if len(dst) > len(d) {
		return fmt.Errorf("cpu download %d elements from %d: %w", len(dst), len(d), ErrLength)
	}
	for i := range dst {
		dst[i] = math.Float32frombits(atomic.LoadUint32(&d[i]))
	}
	return nil
}

// copyAsync implements backend.
func (b *cpuBackend) copyAsync(l lane, dst, src mem, bytes int) error {
	d, err := b.words(dst)
	if err != nil {
		return err
	}
	s, err := b.words(src)
	if err != nil {
		return err
	}
	n := bytes / 4
	return b.enqueue(l, func() {
		for i := 0; i < n; i++ {
			atomic.StoreUint32(&d[i], atomic.LoadUint32(&s[i]))
		}
	})
}

// newLane implements backend.
func (b *cpuBackend) newLane() (lane, error) {
	l := &cpuLane{q: make(chan func(), cpuLaneDepth), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for f := range l.q {
			f()
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	h := lane(b.nextH)
	b.nextH++
	b.lanes[h] = l
	return h, nil
}

// lane resolves a lane handle.
func (b *cpuBackend) lane(h lane) (*cpuLane, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	l, ok := b.lanes[h]
	if !ok {
		return nil, fmt.Errorf("cpu lane %d: %w: unknown lane", h, ErrInvalidArgument)
	}
	return l, nil
}

// enqueue appends f to a lane's queue, blocking while the queue is full.
func (b *cpuBackend) enqueue(h lane, f func()) error {
	l, err := b.lane(h)
	if err != nil {
		return err
	}
	return l.push(f)
}

// destroyLane implements backend.
func (b *cpuBackend) destroyLane(h lane) error {
	l, err := b.lane(h)
	if err != nil {
		return err
	}
	b.mu.Lock()
	delete(b.lanes, h)
	b.mu.Unlock()
	l.stop()
	return nil
}

// newEvent implements backend.
func (b *cpuBackend) newEvent() (event, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := event(b.nextH)
	b.nextH++
	b.events[h] = &cpuEvent{}
	return h, nil
}

// event resolves an event handle.
func (b *cpuBackend) event(h event) (*cpuEvent, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	e, ok := b.events[h]
	if !ok {
		return nil, fmt.Errorf("cpu event %d: %w: unknown event", h, ErrInvalidArgument)
	}
	return e, nil
}

// destroyEvent implements backend.
func (b *cpuBackend) destroyEvent(h event) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.events, h)
	return nil
}

// record replaces the event's signal with a new one that the lane closes
// when it reaches this point, as cuEventRecord replaces the captured work.
func (b *cpuBackend) record(h event, l lane) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	ch := make(chan struct{})
	e.mu.Lock()
	e.cur = ch
	e.mu.Unlock()
	return b.enqueue(l, func() { close(ch) })
}

// wait captures the event's current signal now, as cuStreamWaitEvent does,
// and blocks the lane on it.
func (b *cpuBackend) wait(l lane, h event) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	e.mu.Lock()
	ch := e.cur
	e.mu.Unlock()
	if ch == nil {
		return nil
	}
	return b.enqueue(l, func() { <-ch })
}

// syncEvent implements backend.
func (b *cpuBackend) syncEvent(h event) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	e.mu.Lock()
	ch := e.cur
	e.mu.Unlock()
	if ch != nil {
		<-ch
	}
	return nil
}

// syncLane implements backend.
func (b *cpuBackend) syncLane(h lane) error {
	ch := make(chan struct{})
	if err := b.enqueue(h, func() { close(ch) }); err != nil {
		return err
	}
	<-ch
	return nil
}

// launch implements backend.
func (b *cpuBackend) launch(l lane, op *launch) error {
	out, err := b.words(op.out)
	if err != nil {
		return fmt.Errorf("launch %s: output: %w", kernelNames[op.kernel], err)
	}
	var in [2][]uint32
	for i := range cpuInputs(op.kernel) {
		if in[i], err = b.words(op.in[i]); err != nil {
			return fmt.Errorf("launch %s: input %d: %w", kernelNames[op.kernel], i, err)
		}
	}
	o := *op
	return b.enqueue(l, func() { runCPUKernel(&o, out, in) })
}

// cpuInputs returns the number of input buffers a kernel reads.
func cpuInputs(k kernelID) int {
	switch k {
	case kAdd, kMul:
		return 2
	case kUniform:
		return 0
	default:
		return 1
	}
}

// close implements backend.
func (b *cpuBackend) close() error {
	b.mu.Lock()
	lanes := b.lanes
	b.lanes = map[lane]*cpuLane{}
	b.mems = map[mem][]uint32{}
	b.used = 0
	b.mu.Unlock()
	for _, l := range lanes {
		l.stop()
	}
	return nil
}

// sleepNanos is the CPU slow producer's delay.
func sleepNanos(ns uint64) { time.Sleep(time.Duration(ns)) }

// canFuse implements backend.
func (b *cpuBackend) canFuse() bool { return true }

// fusedOperands resolves the buffers of a fused program.
func (b *cpuBackend) fusedOperands(bufs []mem) ([][]uint32, error) {
	words := make([][]uint32, len(bufs))
	for i, m := range bufs {
		var err error
		if words[i], err = b.words(m); err != nil {
			return nil, fmt.Errorf("launch fused kernel: buffer %d: %w", i, err)
		}
	}
	return words, nil
}

// launchFused implements backend. The task is written out where it is
// handed to enqueue, so that the invariants on what lane tasks may lock
// read its body.
func (b *cpuBackend) launchFused(l lane, p *fusedProgram, bufs []mem, n int) error {
	words, err := b.fusedOperands(bufs)
	if err != nil {
		return err
	}
	prog := *p
	return b.enqueue(l, func() { prog.runCPU(words, n) })
}

// kernelOperands resolves the output and inputs of one launch.
func (b *cpuBackend) kernelOperands(op *launch) (out []uint32, in [2][]uint32, err error) {
	if out, err = b.words(op.out); err != nil {
		return nil, in, fmt.Errorf("launch %s: output: %w", kernelNames[op.kernel], err)
	}
	for i := range cpuInputs(op.kernel) {
		if in[i], err = b.words(op.in[i]); err != nil {
			return nil, in, fmt.Errorf("launch %s: input %d: %w", kernelNames[op.kernel], i, err)
		}
	}
	return out, in, nil
}

// copyOperands resolves the destination and source of a copy.
func (b *cpuBackend) copyOperands(dst, src mem) (d, s []uint32, err error) {
	if d, err = b.words(dst); err != nil {
		return nil, nil, err
	}
	if s, err = b.words(src); err != nil {
		return nil, nil, err
	}
	return d, s, nil
}

// copyWords copies n words of s into d, word by word as a device copy
// would, atomically so that racing lanes are not a data race.
func copyWords(d, s []uint32, n int) {
	for i := 0; i < n; i++ {
		atomic.StoreUint32(&d[i], atomic.LoadUint32(&s[i]))
	}
}
