//go:build linux

package cuda

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// MaxKernelArgs is the most kernel parameters LaunchKernel passes.
const MaxKernelArgs = 8

// currentSlots remembers which context each OS thread has current, so that
// the hot path skips cuCtxSetCurrent when the thread already has it. A slot
// holds the thread id in its high half and the context's index in contexts
// in its low half; threads whose ids share a slot evict each other, which
// only costs a cuCtxSetCurrent. Every context switch in the process goes
// through SetCurrent, which keeps a thread's own slot exact; a stale entry
// (a reused thread id) shows up as CUDA_ERROR_INVALID_CONTEXT and is
// repaired by [Driver.Repair].
var currentSlots [256]atomic.Uint64

// contexts numbers the contexts SetCurrent has seen: context contexts[i]
// has number i+1. Reads scan without a lock (a process has a handful of
// contexts); additions take contextsMu.
var (
	contexts   [64]atomic.Uintptr
	contextsMu sync.Mutex
)

// contextIndex returns the number of ctx, assigning one on first use, or 0
// when the table is full (then the cache is bypassed).
func contextIndex(ctx Context) uint32 {
	for i := range contexts {
		switch contexts[i].Load() {
		case uintptr(ctx):
			return uint32(i + 1)
		case 0:
			contextsMu.Lock()
			defer contextsMu.Unlock()
			for k := i; k < len(contexts); k++ {
				switch contexts[k].Load() {
				case uintptr(ctx):
					return uint32(k + 1)
				case 0:
					contexts[k].Store(uintptr(ctx))
					return uint32(k + 1)
				}
			}
			return 0
		}
	}
	return 0
}

// SetCurrent makes ctx current on the calling OS thread. The caller must have
// locked the goroutine to its thread.
func (d *Driver) SetCurrent(ctx Context) error {
	tid := uint64(uint32(syscall.Gettid()))
	slot := &currentSlots[tid%uint64(len(currentSlots))]
	idx := contextIndex(ctx)
	want := tid<<32 | uint64(idx)
	if idx != 0 && slot.Load() == want {
		return nil
	}
	if err := d.call("cuCtxSetCurrent", d.cuCtxSetCurrent, uintptr(ctx)); err != nil {
		return err
	}
	slot.Store(want)
	return nil
}

// Repair forgets the cached context of the calling thread and sets ctx
// again; callers use it after a call failed with an invalid context.
func (d *Driver) Repair(ctx Context) error {
	tid := uint64(uint32(syscall.Gettid()))
	currentSlots[tid%uint64(len(currentSlots))].Store(0)
	return d.SetCurrent(ctx)
}

// Version returns the driver's CUDA version, e.g. 13000.
func (d *Driver) Version() (int, error) {
	v := new(int32)
	err := d.call("cuDriverGetVersion", d.cuDriverGetVersion, uintptr(unsafe.Pointer(v)))
	return int(*v), err
}

// DeviceCount returns the number of CUDA devices.
func (d *Driver) DeviceCount() (int, error) {
	n := new(int32)
	err := d.call("cuDeviceGetCount", d.cuDeviceGetCount, uintptr(unsafe.Pointer(n)))
	return int(*n), err
}

// DeviceGet returns the device with the given ordinal.
func (d *Driver) DeviceGet(ordinal int) (Device, error) {
	dev := new(Device)
	err := d.call("cuDeviceGet", d.cuDeviceGet, uintptr(unsafe.Pointer(dev)), uintptr(ordinal))
	return *dev, err
}

// DeviceName returns the marketing name of dev.
func (d *Driver) DeviceName(dev Device) (string, error) {
	buf := make([]byte, 256)
	if err := d.call("cuDeviceGetName", d.cuDeviceGetName, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(dev)); err != nil {
		return "", err
	}
	n := 0
	for n < len(buf) && buf[n] != 0 {
		n++
	}
	return string(buf[:n]), nil
}

// ComputeCapability returns the major and minor compute capability of dev.
func (d *Driver) ComputeCapability(dev Device) (major, minor int, err error) {
	major, err = d.attribute(dev, attrComputeMajor)
	if err != nil {
		return 0, 0, err
	}
	minor, err = d.attribute(dev, attrComputeMinor)
	return major, minor, err
}

// Multiprocessors returns the number of SMs of dev.
func (d *Driver) Multiprocessors(dev Device) (int, error) {
	return d.attribute(dev, attrMultiprocessors)
}

// attribute reads one integer device attribute.
func (d *Driver) attribute(dev Device, attr int) (int, error) {
	v := new(int32)
	err := d.call("cuDeviceGetAttribute", d.cuDeviceGetAttribute, uintptr(unsafe.Pointer(v)), uintptr(attr), uintptr(dev))
	return int(*v), err
}

// PrimaryCtxRetain retains the primary context of dev.
func (d *Driver) PrimaryCtxRetain(dev Device) (Context, error) {
	ctx := new(Context)
	err := d.call("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(ctx)), uintptr(dev))
	return *ctx, err
}

// PrimaryCtxRelease releases the primary context of dev.
func (d *Driver) PrimaryCtxRelease(dev Device) error {
	return d.call("cuDevicePrimaryCtxRelease_v2", d.cuDevicePrimaryCtxRelease, uintptr(dev))
}

// MemAlloc allocates bytes of device memory.
func (d *Driver) MemAlloc(bytes int) (DevicePtr, error) {
	p := new(DevicePtr)
	err := d.call("cuMemAlloc_v2", d.cuMemAlloc, uintptr(unsafe.Pointer(p)), uintptr(bytes))
	return *p, err
}

// MemFree frees device memory.
func (d *Driver) MemFree(p DevicePtr) error {
	return d.callValues("cuMemFree_v2", d.cuMemFree, 1, uintptr(p), 0, 0, 0)
}

// MemGetInfo returns the free and total device memory in bytes.
func (d *Driver) MemGetInfo() (free, total int, err error) {
	f, t := new(uintptr), new(uintptr)
	err = d.call("cuMemGetInfo_v2", d.cuMemGetInfo, uintptr(unsafe.Pointer(f)), uintptr(unsafe.Pointer(t)))
	return int(*f), int(*t), err
}

// MemcpyHtoDAsync copies bytes from host memory at src to dst on s. The
// caller keeps src pinned until the stream has passed the copy.
func (d *Driver) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, bytes int, s Stream) error {
	return d.call("cuMemcpyHtoDAsync_v2", d.cuMemcpyHtoDAsync, uintptr(dst), uintptr(src), uintptr(bytes), uintptr(s))
}

// MemcpyDtoHAsync copies bytes from src to host memory at dst on s. The
// caller keeps dst pinned until the stream has passed the copy.
func (d *Driver) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, bytes int, s Stream) error {
	return d.call("cuMemcpyDtoHAsync_v2", d.cuMemcpyDtoHAsync, uintptr(dst), uintptr(src), uintptr(bytes), uintptr(s))
}

// MemcpyDtoDAsync copies bytes between device buffers on s.
func (d *Driver) MemcpyDtoDAsync(dst, src DevicePtr, bytes int, s Stream) error {
	return d.callValues("cuMemcpyDtoDAsync_v2", d.cuMemcpyDtoDAsync, 4, uintptr(dst), uintptr(src), uintptr(bytes), uintptr(s))
}

// MemsetD32Async sets n 32-bit words at dst to v on s.
func (d *Driver) MemsetD32Async(dst DevicePtr, v uint32, n int, s Stream) error {
	return d.callValues("cuMemsetD32Async", d.cuMemsetD32Async, 4, uintptr(dst), uintptr(v), uintptr(n), uintptr(s))
}

// StreamCreateNonBlocking creates a stream that does not synchronize with
// the legacy default stream.
func (d *Driver) StreamCreateNonBlocking() (Stream, error) {
	s := new(Stream)
	err := d.call("cuStreamCreate", d.cuStreamCreate, uintptr(unsafe.Pointer(s)), streamNonBlocking)
	return *s, err
}

// StreamDestroy destroys s.
func (d *Driver) StreamDestroy(s Stream) error {
	return d.callValues("cuStreamDestroy_v2", d.cuStreamDestroy, 1, uintptr(s), 0, 0, 0)
}

// StreamSynchronize waits until s has finished its work.
func (d *Driver) StreamSynchronize(s Stream) error {
	return d.callValues("cuStreamSynchronize", d.cuStreamSynchronize, 1, uintptr(s), 0, 0, 0)
}

// StreamWaitEvent makes s wait for the most recent record of e.
func (d *Driver) StreamWaitEvent(s Stream, e Event) error {
	return d.callValues("cuStreamWaitEvent", d.cuStreamWaitEvent, 3, uintptr(s), uintptr(e), 0, 0)
}

// EventCreate creates an event without timing.
func (d *Driver) EventCreate() (Event, error) {
	e := new(Event)
	err := d.call("cuEventCreate", d.cuEventCreate, uintptr(unsafe.Pointer(e)), eventDisableTiming)
	return *e, err
}

// EventDestroy destroys e.
func (d *Driver) EventDestroy(e Event) error {
	return d.callValues("cuEventDestroy_v2", d.cuEventDestroy, 1, uintptr(e), 0, 0, 0)
}

// EventRecord records e on s.
func (d *Driver) EventRecord(e Event, s Stream) error {
	return d.callValues("cuEventRecord", d.cuEventRecord, 2, uintptr(e), uintptr(s), 0, 0)
}

// EventSynchronize waits for the most recent record of e.
func (d *Driver) EventSynchronize(e Event) error {
	return d.callValues("cuEventSynchronize", d.cuEventSynchronize, 1, uintptr(e), 0, 0, 0)
}

// EventQuery reports whether the most recent record of e has been reached,
// without blocking.
func (d *Driver) EventQuery(e Event) (bool, error) {
	return d.query("cuEventQuery", d.cuEventQuery, uintptr(e))
}

// StreamQuery reports whether s has finished its work, without blocking.
func (d *Driver) StreamQuery(s Stream) (bool, error) {
	return d.query("cuStreamQuery", d.cuStreamQuery, uintptr(s))
}

// EventWait waits for the most recent record of e: it polls cuEventQuery
// for up to spin, then blocks in cuEventSynchronize. Polling notices a
// completion sooner than the driver's blocking wait when the work is
// short; past spin, the wait costs no more than cuEventSynchronize's.
func (d *Driver) EventWait(e Event, spin time.Duration) error {
	if spin > 0 {
		// One pooled argument list for every poll: a variadic list built
		// per call escapes to the heap through purego.
		list := argLists.Get().(*[maxValueArgs]uintptr)
		list[0] = uintptr(e)
		argv := list[:1]
		start := time.Now()
		var r uintptr
		for {
			r, _, _ = purego.SyscallN(d.cuEventQuery, argv...)
			if r != ErrorNotReady || time.Since(start) >= spin {
				break
			}
		}
		argLists.Put(list)
		switch r {
		case Success:
			return nil
		case ErrorNotReady:
		default:
			return d.errorFor("cuEventQuery", int(r))
		}
	}
	return d.EventSynchronize(e)
}

// query calls a driver query that answers CUDA_SUCCESS when the work is
// done and CUDA_ERROR_NOT_READY while it is not.
func (d *Driver) query(op string, fn, arg uintptr) (bool, error) {
	list := argLists.Get().(*[maxValueArgs]uintptr)
	list[0] = arg
	r, _, _ := purego.SyscallN(fn, list[:1]...)
	argLists.Put(list)
	switch r {
	case Success:
		return true, nil
	case ErrorNotReady:
		return false, nil
	}
	return false, d.errorFor(op, int(r))
}

// ModuleLoadData loads a PTX image (NUL-terminated by this function).
func (d *Driver) ModuleLoadData(ptx []byte) (Module, error) {
	img := make([]byte, len(ptx)+1)
	copy(img, ptx)
	m := new(Module)
	err := d.call("cuModuleLoadData", d.cuModuleLoadData, uintptr(unsafe.Pointer(m)), uintptr(unsafe.Pointer(&img[0])))
	goruntime.KeepAlive(img)
	return *m, err
}

// ModuleUnload unloads m.
func (d *Driver) ModuleUnload(m Module) error {
	return d.callValues("cuModuleUnload", d.cuModuleUnload, 1, uintptr(m), 0, 0, 0)
}

// ModuleGetFunction looks up a kernel by its (extern "C") name.
func (d *Driver) ModuleGetFunction(m Module, name string) (Function, error) {
	f := new(Function)
	cname := cString(name)
	err := d.call("cuModuleGetFunction", d.cuModuleGetFunction, uintptr(unsafe.Pointer(f)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	goruntime.KeepAlive(cname)
	return *f, err
}

// launchParams is the kernel parameter block: one 8-byte slot per argument
// (device pointers fill a slot, 32-bit scalars its low half) and the array
// of pointers to the slots that cuLaunchKernel reads.
type launchParams struct {
	vals [MaxKernelArgs]uint64
	ptrs [MaxKernelArgs]unsafe.Pointer
}

// LaunchKernel launches f on s with a 1-D grid. args holds one value per
// kernel parameter. The parameter block lives in Go memory and is pinned for
// the call, since the pointer array holds Go pointers.
func (d *Driver) LaunchKernel(f Function, grid, block, sharedBytes uint32, s Stream, args []uint64) error {
	p := new(launchParams)
	n := copy(p.vals[:], args)
	for i := 0; i < n; i++ {
		p.ptrs[i] = unsafe.Pointer(&p.vals[i])
	}
	var pin goruntime.Pinner
	pin.Pin(p)
	err := d.call("cuLaunchKernel", d.cuLaunchKernel, uintptr(f),
		uintptr(grid), 1, 1, uintptr(block), 1, 1,
		uintptr(sharedBytes), uintptr(s), uintptr(unsafe.Pointer(&p.ptrs[0])), 0)
	pin.Unpin()
	return err
}

// Launcher launches kernels through one parameter block that stays pinned
// for the launcher's lifetime, which saves an allocation and a pin per
// launch on the hot path. cuLaunchKernel copies the parameters before it
// returns, so the block is reused at once. It is safe for concurrent use.
type Launcher struct {
	d   *Driver
	mu  sync.Mutex
	p   *launchParams
	pin goruntime.Pinner
	// argv is cuLaunchKernel's argument list, kept here because a
	// variadic list built per call escapes to the heap through purego:
	// one allocation per launch on the hot path otherwise.
	argv [11]uintptr
}

// NewLauncher returns a launcher; Close unpins its parameter block.
func (d *Driver) NewLauncher() *Launcher {
	l := &Launcher{d: d, p: new(launchParams)}
	for i := range l.p.ptrs {
		l.p.ptrs[i] = unsafe.Pointer(&l.p.vals[i])
	}
	l.pin.Pin(l.p)
	return l
}

// Launch launches f on s with a 1-D grid; args holds one value per kernel
// parameter, at most MaxKernelArgs.
func (l *Launcher) Launch(f Function, grid, block, sharedBytes uint32, s Stream, args []uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	copy(l.p.vals[:], args)
	// The parameter block is pinned for the launcher's life, so its
	// address may sit in argv as an integer.
	l.argv = [11]uintptr{uintptr(f), uintptr(grid), 1, 1, uintptr(block), 1, 1,
		uintptr(sharedBytes), uintptr(s), uintptr(unsafe.Pointer(&l.p.ptrs[0])), 0}
	if r, _, _ := purego.SyscallN(l.d.cuLaunchKernel, l.argv[:]...); r != Success {
		return l.d.errorFor("cuLaunchKernel", int(r))
	}
	return nil
}

// Close unpins the parameter block; the launcher must not be used after.
func (l *Launcher) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pin.Unpin()
}
