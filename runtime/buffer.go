package runtime

import (
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// Buffer is device memory holding float32 elements. It is freed explicitly
// with Free; a Buffer dropped without Free is reclaimed by a leak net that
// queues the free to run under the evaluation lock. Free while a command
// buffer still uses the buffer defers the release of the memory until that
// command buffer's Wait.
type Buffer struct {
	dev *Device
	m   mem
	n   int

	// output marks a buffer allocated for an evaluation's result: only
	// the array holds it, never the caller, so Free may keep it as a
	// spare for the device's next result of its length (spares.go).
	output bool

	mu sync.Mutex
	// freed is written under mu and read under it, except by a command
	// buffer that already holds a use of the buffer (CommandBuffer.use):
	// it only needs to see a Free that happened before its dispatch.
	freed    atomic.Bool
	inflight int    // command buffers holding a use that have not completed
	netArmed bool   // cleanup is registered
	gen      uint32 // times the buffer was recycled as a spare
	cleanup  goruntime.Cleanup
}

// NewBuffer allocates n float32 elements of uninitialised device memory.
func (d *Device) NewBuffer(n int) (*Buffer, error) {
	b, err := d.newBuffer(n)
	if err != nil {
		return nil, err
	}
	b.armLeakNet()
	return b, nil
}

// newBuffer is NewBuffer without the leak net, which costs a few hundred
// nanoseconds to register: an evaluation allocates its outputs with it
// before the launch and arms their nets while the device computes
// (armOutputsLocked). Until then the buffer must stay reachable or be
// freed.
func (d *Device) newBuffer(n int) (*Buffer, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("new buffer of %d elements: %w: want at least 1", n, ErrInvalidArgument)
	}
	if n > 1<<32-1 {
		return nil, fmt.Errorf("new buffer of %d elements: %w: at most 2^32-1", n, ErrInvalidArgument)
	}
	m, _, err := d.allocate(4 * n)
	if err != nil {
		return nil, fmt.Errorf("new buffer of %d elements: %w", n, err)
	}
	return &Buffer{dev: d, m: m, n: n}, nil
}

// armLeakNet registers the leak net of a buffer allocated by newBuffer,
// unless it was freed meanwhile.
func (b *Buffer) armLeakNet() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.freed.Load() || b.netArmed {
		return
	}
	b.netArmed = true
	b.cleanup = goruntime.AddCleanup(b, queueLeak, leak{dev: b.dev, m: b.m})
}

// BufferFrom allocates a buffer holding a copy of data.
func (d *Device) BufferFrom(data []float32) (*Buffer, error) {
	b, err := d.NewBuffer(len(data))
	if err != nil {
		return nil, err
	}
	if err := b.Write(data); err != nil {
		_ = b.Free()
		return nil, err
	}
	return b, nil
}

// Len returns the number of elements.
func (b *Buffer) Len() int { return b.n }

// Device returns the buffer's device.
func (b *Buffer) Device() *Device { return b.dev }

// usable fails on a freed buffer or a closed device; b.mu is held.
func (b *Buffer) usable(op string) error {
	if b.freed.Load() {
		return fmt.Errorf("%s: %w", op, ErrFreed)
	}
	if err := b.dev.check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if b.inflight > 0 {
		return fmt.Errorf("%s: %w: buffer in use by a command buffer that was not waited for", op, ErrInvalidArgument)
	}
	return nil
}

// Write copies data into the buffer; len(data) must equal Len.
func (b *Buffer) Write(data []float32) error {
	if len(data) != b.n {
		return fmt.Errorf("write %d elements into a buffer of %d: %w", len(data), b.n, ErrLength)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.usable("write"); err != nil {
		return err
	}
	if err := b.dev.backend.upload(b.m, data); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// Read copies the buffer into dst; len(dst) must equal Len.
func (b *Buffer) Read(dst []float32) error { return b.read(dst, anyGeneration) }

// anyGeneration is read's gen for a reader that holds the buffer itself,
// which is never recycled under it.
const anyGeneration = -1

// read implements Read. A reader that found the buffer through an array
// (Array.Data) passes the generation it saw there: the array may have been
// freed since and its buffer recycled as another evaluation's result, which
// the reader must see as freed, not read.
func (b *Buffer) read(dst []float32, gen int64) error {
	if len(dst) != b.n {
		return fmt.Errorf("read a buffer of %d elements into %d: %w", b.n, len(dst), ErrLength)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if gen != anyGeneration && gen != int64(b.gen) {
		return fmt.Errorf("read: %w", ErrFreed)
	}
	if err := b.usable("read"); err != nil {
		return err
	}
	if err := b.dev.backend.download(dst, b.m); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

// Floats returns a copy of the buffer's contents.
func (b *Buffer) Floats() ([]float32, error) {
	out := make([]float32, b.n)
	if err := b.Read(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Free releases the buffer. Freeing twice is an error; freeing a buffer of a
// closed device is not (Close released the memory). An evaluation's
// result that no command buffer uses becomes one of the device's spares,
// memory and leak net included, while there is room (keepSpare).
func (b *Buffer) Free() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.freed.Load() {
		return fmt.Errorf("free: %w", ErrFreed)
	}
	b.freed.Store(true)
	if b.output && b.inflight == 0 && b.dev.keepSpare(b) {
		return nil
	}
	b.cleanup.Stop()
	b.netArmed = false
	if b.inflight > 0 || b.dev.closed.Load() {
		return nil // settle or Close releases the memory
	}
	return b.dev.deallocate(b.m)
}

// acquire marks the buffer as used by a dispatch on d.
func (b *Buffer) acquire(d *Device) error {
	if b.dev != d {
		return fmt.Errorf("%w: buffer of %s used on %s", ErrDevices, b.dev, d)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.freed.Load() {
		return ErrFreed
	}
	b.inflight++
	return nil
}

// settle ends a use begun by acquire, releasing the memory of a buffer that
// was freed meanwhile.
func (b *Buffer) settle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inflight--
	if b.inflight == 0 && b.freed.Load() {
		_ = b.dev.deallocate(b.m)
	}
}
