package runtime

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Device is an open backend with its encoder pool, its memory cache, its
// default stream and the registry of its streams' command buffers. Every
// method may be called from any goroutine. Devices share nothing but
// evalMu: two devices, of one ordinal or of two, have their own pools,
// memory and streams.
type Device struct {
	cfg      config
	backend  backend
	pool     *encoderPool
	stream   *Stream
	encoders encoderRegistry // the device's streams and their command buffers
	closed   atomic.Bool

	mu     sync.Mutex
	live   map[mem]int   // allocated bytes of every live allocation
	cache  map[int][]mem // freed allocations by size, for reuse
	cached int           // bytes held in cache
	// spares are freed result buffers kept for reuse (spares.go); their
	// memory stays in live, and spareBytes is its size.
	spares     []*Buffer
	spareBytes int

	leakMu sync.Mutex
	leaked []leak // allocations whose Buffer was collected unfreed

	fusedDispatches atomic.Uint64 // fused kernels dispatched, for tests
}

// maxCachedBytes bounds the memory kept for reuse after Free.
const maxCachedBytes = 4 << 30

// openDevices lists every open device, for Synchronize without arguments.
var openDevices struct {
	sync.Mutex
	list []*Device
}

// Open opens a device. Without options it uses CUDA device 0 when
// libcuda.so.1 loads and CPU device 0 otherwise; GUARDLINT_RT_BACKEND,
// GUARDLINT_RT_KERNELS and GUARDLINT_RT_CPU_DEVICES override the defaults,
// and options override all three. An ordinal at or beyond DeviceCount is
// ErrInvalidArgument.
func Open(opts ...Option) (*Device, error) {
	cfg, err := resolveConfig(opts)
	if err != nil {
		return nil, fmt.Errorf("open device: %w", err)
	}
	b, err := openBackend(cfg)
	if err != nil {
		return nil, fmt.Errorf("open device: %w", err)
	}
	d := &Device{cfg: cfg, backend: b, live: map[mem]int{}, cache: map[int][]mem{}}
	d.pool = newEncoderPool(d, cfg.lanes)
	d.stream = &Stream{dev: d}
	openDevices.Lock()
	openDevices.list = append(openDevices.list, d)
	openDevices.Unlock()
	return d, nil
}

// defaultDevice is the process-global device of DefaultDevice.
var defaultDevice struct {
	sync.Mutex
	dev *Device
}

// DefaultDevice returns the process-global device, opening it with the
// environment's settings on first use or after it was closed.
func DefaultDevice() (*Device, error) {
	defaultDevice.Lock()
	defer defaultDevice.Unlock()
	if defaultDevice.dev == nil || defaultDevice.dev.closed.Load() {
		d, err := Open()
		if err != nil {
			return nil, err
		}
		defaultDevice.dev = d
	}
	return defaultDevice.dev, nil
}

// Backend returns the backend the device runs on.
func (d *Device) Backend() Backend { return d.backend.kind() }

// KernelSource returns where CUDA kernels were loaded from.
func (d *Device) KernelSource() KernelSource { return d.cfg.kernels }

// Ordinal returns the device's ordinal among its backend's devices.
func (d *Device) Ordinal() int { return d.cfg.ordinal }

// String describes the device, starting with its backend and ordinal
// ("cpu:1 (goroutine lanes)", "cuda:1 NVIDIA H200, ...").
func (d *Device) String() string { return d.backend.describe() }

// DefaultStream returns the device's one default stream: the same value
// from every goroutine.
func (d *Device) DefaultStream() *Stream { return d.stream }

// check fails on a closed device.
func (d *Device) check() error {
	if d.closed.Load() {
		return fmt.Errorf("%s: %w", d.backend.describe(), ErrDeviceClosed)
	}
	return nil
}

// allocate returns device memory of at least bytes, reusing a cached
// allocation of the same rounded size when there is one. When the backend
// runs out of memory, the cache is emptied and the allocation tried again.
func (d *Device) allocate(bytes int) (mem, int, error) {
	size := roundSize(bytes)
	d.mu.Lock()
	if l := d.cache[size]; len(l) > 0 {
		m := l[len(l)-1]
		d.cache[size] = l[:len(l)-1]
		d.cached -= size
		d.live[m] = size
		d.mu.Unlock()
		return m, size, nil
	}
	d.mu.Unlock()
	m, err := d.backend.alloc(size)
	if errors.Is(err, ErrOutOfMemory) {
		if ferr := d.flushCache(); ferr != nil {
			return 0, 0, errors.Join(err, ferr)
		}
		m, err = d.backend.alloc(size)
	}
	if err != nil {
		return 0, 0, err
	}
	d.mu.Lock()
	d.live[m] = size
	d.mu.Unlock()
	return m, size, nil
}

// deallocate returns memory to the cache, or to the backend when the cache
// is full.
func (d *Device) deallocate(m mem) error {
	d.mu.Lock()
	size, ok := d.live[m]
	if !ok {
		d.mu.Unlock()
		return nil // released by Close already
	}
	delete(d.live, m)
	if d.cached+size <= maxCachedBytes {
		d.cache[size] = append(d.cache[size], m)
		d.cached += size
		d.mu.Unlock()
		return nil
	}
	d.mu.Unlock()
	return d.backend.free(m)
}

// flushCache frees every cached allocation, the spares' included.
func (d *Device) flushCache() error {
	var errs []error
	for _, m := range d.dropSpares() {
		errs = append(errs, d.deallocate(m))
	}
	d.mu.Lock()
	var all []mem
	for _, l := range d.cache {
		all = append(all, l...)
	}
	d.cache = map[int][]mem{}
	d.cached = 0
	d.mu.Unlock()
	for _, m := range all {
		errs = append(errs, d.backend.free(m))
	}
	return errors.Join(errs...)
}

// roundSize rounds an allocation up to a power of two below 1 MiB and to a
// multiple of 1 MiB above, so that the cache finds reusable sizes.
func roundSize(bytes int) int {
	const mib = 1 << 20
	if bytes > mib {
		return (bytes + mib - 1) &^ (mib - 1)
	}
	size := 256
	for size < bytes {
		size <<= 1
	}
	return size
}

// leak is an allocation whose Buffer became unreachable without Free.
type leak struct {
	dev *Device
	m   mem
}

// queueLeak is the Buffer leak net's cleanup: it only queues the free,
// which drainLeaksLocked performs under evalMu, where no evaluation can be
// using the memory.
func queueLeak(l leak) {
	l.dev.leakMu.Lock()
	l.dev.leaked = append(l.dev.leaked, l)
	l.dev.leakMu.Unlock()
}

// drainLeaksLocked frees the allocations queued by the leak net. evalMu is
// held.
func (d *Device) drainLeaksLocked() error {
	d.leakMu.Lock()
	q := d.leaked
	d.leaked = nil
	d.leakMu.Unlock()
	var errs []error
	for _, l := range q {
		errs = append(errs, d.deallocate(l.m))
	}
	return errors.Join(errs...)
}

// Stats is a snapshot of a device's resources.
type Stats struct {
	Backend     Backend
	Streams     int // streams of the device: its default stream and every other stream that holds a command buffer
	Lanes       int // backend queues (CUDA streams) created by the pool
	Encoders    int // encoder objects created
	Outstanding int // encoders handed out and not yet taken back
	LiveBuffers int // allocations in use
	LiveBytes   int
	CachedBytes int // memory kept for reuse: freed allocations and spare result buffers
}

// Stats returns a snapshot of the device's resources.
func (d *Device) Stats() Stats {
	s := Stats{Backend: d.Backend(), Streams: d.encoders.size()}
	if d.encoders.lookup(d.stream) == nil {
		s.Streams++ // the default stream exists before its first evaluation
	}
	s.Lanes, s.Encoders, s.Outstanding = d.pool.counts()
	d.mu.Lock()
	defer d.mu.Unlock()
	s.LiveBuffers = len(d.live) - len(d.spares)
	for _, n := range d.live {
		s.LiveBytes += n
	}
	s.LiveBytes -= d.spareBytes
	s.CachedBytes = d.cached + d.spareBytes
	return s
}

// Close waits for the device's work, releases its lanes, events, memory
// and streams and closes the backend. Buffers, arrays and streams of a
// closed device return ErrDeviceClosed. Close excludes evaluations, but not
// command buffers of the device used by other goroutines, nor NewStream:
// finish those before closing.
func (d *Device) Close() error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return d.closeLocked()
}

// closeLocked closes the device and releases the command buffers of its
// streams, on which evaluations encode: its callers hold evalMu.
//
//guardlint:requires evalMu
func (d *Device) closeLocked() error {
	if d.closed.Swap(true) {
		return nil
	}
	openDevices.Lock()
	for i, o := range openDevices.list {
		if o == d {
			openDevices.list = append(openDevices.list[:i], openDevices.list[i+1:]...)
			break
		}
	}
	openDevices.Unlock()
	errs := []error{d.pool.destroy()}
	for _, cb := range d.encoders.takeAll() {
		errs = append(errs, cb.release())
	}
	d.mu.Lock()
	var all []mem
	for m := range d.live {
		all = append(all, m)
	}
	d.live = map[mem]int{}
	d.mu.Unlock()
	errs = append(errs, d.flushCache())
	for _, m := range all {
		errs = append(errs, d.backend.free(m))
	}
	errs = append(errs, d.backend.close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close device: %w", err)
	}
	return nil
}
