//go:build linux

package runtime

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/guardlint/guardlint/runtime/internal/cuda"
	"github.com/guardlint/guardlint/runtime/kernels"
)

// errNoDriver marks a CUDA driver that cannot be loaded or initialised; in
// auto mode it selects the CPU backend.
var errNoDriver = errors.New("no usable CUDA driver")

// cudaWaitSpin is how long a completion wait polls before it blocks.
const cudaWaitSpin = 100 * time.Microsecond

// elementwiseBlock is the block size of every 1-D kernel launch.
const elementwiseBlock = 256

// cudaBackend runs on one CUDA device through its primary context. Every
// driver call goes through do, which locks the goroutine to its OS thread and
// makes the context current there: a context is current per OS thread and
// goroutines migrate between threads.
type cudaBackend struct {
	drv      *cuda.Driver
	ordinal  int
	dev      cuda.Device
	ctx      cuda.Context
	name     string
	version  int
	source   KernelSource
	funcs    [numKernels]cuda.Function
	modules  []cuda.Module
	xfer     cuda.Stream // transfer lane for uploads and downloads
	launcher *cuda.Launcher

	spin atomic.Int64 // how long syncEvent polls before it blocks, in nanoseconds

	fusable bool // NVRTC loads, so fused programs can be compiled
	fuseMu  sync.Mutex
	fused   map[fusedProgram]cuda.Function // compiled fused programs
	// lastFused is the program fusedFunction returned last, and its kernel.
	lastFused atomic.Pointer[fusedKernel]

	replay bool       // kernels are replayed as CUDA graphs (WithGraphs, and the driver has graphs)
	graphs laneGraphs // the graphs replayed, per kernel and lane
}

// fusedKernel is a compiled fused program.
type fusedKernel struct {
	prog fusedProgram
	f    cuda.Function
}

// newCUDABackend opens device c.ordinal through its primary context and
// loads the kernels from the configured source.
func newCUDABackend(c config) (*cudaBackend, error) {
	drv, err := cuda.LoadDriver()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoDriver, err)
	}
	b := &cudaBackend{drv: drv, ordinal: c.ordinal, source: c.kernels, fused: map[fusedProgram]cuda.Function{},
		replay: c.graphs && drv.GraphsSupported()}
	if _, err := cuda.LoadNVRTC(); err == nil {
		b.fusable = true
	}
	if b.version, err = drv.Version(); err != nil {
		return nil, err
	}
	n, err := drv.DeviceCount()
	if err != nil {
		return nil, err
	}
	if err := checkOrdinal(BackendCUDA, c.ordinal, n); err != nil {
		return nil, err
	}
	if b.dev, err = drv.DeviceGet(c.ordinal); err != nil {
		return nil, fmt.Errorf("device %d: %w", c.ordinal, err)
	}
	if b.name, err = drv.DeviceName(b.dev); err != nil {
		return nil, err
	}
	if b.ctx, err = drv.PrimaryCtxRetain(b.dev); err != nil {
		return nil, fmt.Errorf("retain primary context of device %d: %w", c.ordinal, err)
	}
	b.spin.Store(int64(cudaWaitSpin))
	b.launcher = drv.NewLauncher() // unpinned by close
	if err := b.init(); err != nil {
		_ = b.close()
		return nil, err
	}
	return b, nil
}

// cudaDeviceCount returns the number of CUDA devices the driver reports,
// or an error wrapping errNoDriver where the driver does not load.
func cudaDeviceCount() (int, error) {
	drv, err := cuda.LoadDriver()
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errNoDriver, err)
	}
	return drv.DeviceCount()
}

// init creates the transfer lane and loads the kernels.
func (b *cudaBackend) init() error {
	return b.do(func() error {
		var err error
		if b.xfer, err = b.drv.StreamCreateNonBlocking(); err != nil {
			return err
		}
		return b.loadKernels()
	})
}

// do runs f with the OS thread locked and the device's context current.
//
// Making the context current costs a gettid system call per driver call
// (cuda.Driver.SetCurrent's per-thread cache). Skipping it while the
// process has one context, and setting the context only when a call
// fails on a thread that has none, was tried and measured: it saves
// about 90 ns per call on the H200's host, but every fresh thread's
// first call then fails with CUDA_ERROR_INVALID_CONTEXT, which
// compute-sanitizer reports as an API error, so the sanitizer runs could
// no longer tell those from real ones.
func (b *cudaBackend) do(f func() error) error {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	if err := b.drv.SetCurrent(b.ctx); err != nil {
		return err
	}
	err := f()
	if err == nil {
		return nil // before ce, which errors.As moves to the heap: no allocation per call
	}
	var ce *cuda.Error
	if errors.As(err, &ce) && ce.Code == cuda.ErrorInvalidContext {
		// A stale per-thread cache entry (a reused thread id): set the
		// context again and retry once.
		if rerr := b.drv.Repair(b.ctx); rerr != nil {
			return rerr
		}
		err = f()
	}
	return err
}

// loadKernels loads every module from embedded PTX or from NVRTC.
func (b *cudaBackend) loadKernels() error {
	mods, err := kernels.Modules()
	if err != nil {
		return err
	}
	for _, m := range mods {
		ptx := []byte(m.PTX)
		if b.source == KernelsNVRTC {
			if ptx, err = b.compile(m.Name+".cu", m.Source); err != nil {
				return err
			}
		}
		mod, err := b.drv.ModuleLoadData(ptx)
		if err != nil {
			return fmt.Errorf("load kernel module %s (%s): %w", m.Name, b.source, err)
		}
		b.modules = append(b.modules, mod)
		for id, name := range kernelNames {
			if kernelModules[id] != m.Name {
				continue
			}
			if b.funcs[id], err = b.drv.ModuleGetFunction(mod, name); err != nil {
				return fmt.Errorf("kernel %s in module %s (%s): %w", name, m.Name, b.source, err)
			}
		}
	}
	for id, f := range b.funcs {
		if f == 0 {
			return fmt.Errorf("kernel %s not found in any module", kernelNames[id])
		}
	}
	return nil
}

// compile runs NVRTC on one source for this device's architecture.
func (b *cudaBackend) compile(name, source string) ([]byte, error) {
	nv, err := cuda.LoadNVRTC()
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", name, err)
	}
	major, minor, err := b.drv.ComputeCapability(b.dev)
	if err != nil {
		return nil, err
	}
	arch := fmt.Sprintf("--gpu-architecture=compute_%d%d", major, minor)
	ptx, err := nv.Compile(source, name, []string{arch})
	if err != nil {
		return nil, fmt.Errorf("compile %s with NVRTC: %w: %w", name, ErrCompile, err)
	}
	return ptx, nil
}

// compileAndLoad compiles and loads a source; tests use it to check how a
// failing compilation is reported.
func (b *cudaBackend) compileAndLoad(name, source string) error {
	return b.do(func() error {
		ptx, err := b.compile(name, source)
		if err != nil {
			return err
		}
		mod, err := b.drv.ModuleLoadData(ptx)
		if err != nil {
			return err
		}
		return b.drv.ModuleUnload(mod)
	})
}

// kind implements backend.
func (b *cudaBackend) kind() Backend { return BackendCUDA }

// describe implements backend.
func (b *cudaBackend) describe() string {
	graphs := "off"
	if b.replay {
		graphs = "on"
	}
	return fmt.Sprintf("cuda:%d %s, driver CUDA %d.%d, kernels %s, graphs %s", b.ordinal, b.name, b.version/1000, b.version%1000/10, b.source, graphs)
}

// alloc implements backend.
func (b *cudaBackend) alloc(bytes int) (mem, error) {
	var p cuda.DevicePtr
	err := b.do(func() (err error) { p, err = b.drv.MemAlloc(bytes); return err })
	var ce *cuda.Error
	if errors.As(err, &ce) && ce.IsOutOfMemory() {
		return 0, fmt.Errorf("cuda alloc %d bytes: %w: %w", bytes, ErrOutOfMemory, err)
	}
	return mem(p), err
}

// free implements backend.
func (b *cudaBackend) free(m mem) error {
	return b.do(func() error { return b.drv.MemFree(cuda.DevicePtr(m)) })
}

// upload implements backend.
func (b *cudaBackend) upload(dst mem, src []float32) error {
	if len(src) == 0 {
		return nil
	}
	var pin goruntime.Pinner
	pin.Pin(&src[0])
	defer pin.Unpin()
	return b.do(func() error {
		if err := b.drv.MemcpyHtoDAsync(cuda.DevicePtr(dst), unsafe.Pointer(&src[0]), 4*len(src), b.xfer); err != nil {
			return err
		}
		return b.drv.StreamSynchronize(b.xfer)
	})
}

// download implements backend.
func (b *cudaBackend) download(dst []float32, src mem) error {
	if len(dst) == 0 {
		return nil
	}
	var pin goruntime.Pinner
	pin.Pin(&dst[0])
	defer pin.Unpin()
	return b.do(func() error {
		if err := b.drv.MemcpyDtoHAsync(unsafe.Pointer(&dst[0]), cuda.DevicePtr(src), 4*len(dst), b.xfer); err != nil {
			return err
		}
		return b.drv.StreamSynchronize(b.xfer)
	})
}

// copyAsync implements backend.
func (b *cudaBackend) copyAsync(l lane, dst, src mem, bytes int) error {
	return b.do(func() error {
		return b.drv.MemcpyDtoDAsync(cuda.DevicePtr(dst), cuda.DevicePtr(src), bytes, cuda.Stream(l))
	})
}

// newLane implements backend.
func (b *cudaBackend) newLane() (lane, error) {
	var s cuda.Stream
	err := b.do(func() (err error) { s, err = b.drv.StreamCreateNonBlocking(); return err })
	return lane(s), err
}

// destroyLane implements backend.
func (b *cudaBackend) destroyLane(l lane) error {
	err := b.dropGraphs(l, false)
	return errors.Join(err, b.do(func() error { return b.drv.StreamDestroy(cuda.Stream(l)) }))
}

// newEvent implements backend.
func (b *cudaBackend) newEvent() (event, error) {
	var e cuda.Event
	err := b.do(func() (err error) { e, err = b.drv.EventCreate(); return err })
	return event(e), err
}

// destroyEvent implements backend.
func (b *cudaBackend) destroyEvent(e event) error {
	return b.do(func() error { return b.drv.EventDestroy(cuda.Event(e)) })
}

// record implements backend.
func (b *cudaBackend) record(e event, l lane) error {
	return b.do(func() error { return b.drv.EventRecord(cuda.Event(e), cuda.Stream(l)) })
}

// wait implements backend.
func (b *cudaBackend) wait(l lane, e event) error {
	return b.do(func() error { return b.drv.StreamWaitEvent(cuda.Stream(l), cuda.Event(e)) })
}

// syncEvent implements backend: it polls the event for up to the spin
// budget, then blocks (cuda.Driver.EventWait). A small kernel's round trip
// completes within microseconds of the wait's start, and polling notices
// it sooner than the driver's blocking wait: on the H200 the fused (a+b)*c
// round trip took 0.5 to 1.0 µs less with a 100 µs budget than with none
// in one run, and no measurable difference in another
// (docs/gpu-results.md). A long kernel costs at most the budget of
// polling before the wait blocks.
func (b *cudaBackend) syncEvent(e event) error {
	spin := time.Duration(b.spin.Load())
	return b.do(func() error { return b.drv.EventWait(cuda.Event(e), spin) })
}

// syncLane implements backend.
func (b *cudaBackend) syncLane(l lane) error {
	return b.do(func() error { return b.drv.StreamSynchronize(cuda.Stream(l)) })
}

// launch encodes op as the kernel's parameter list and launches it.
func (b *cudaBackend) launch(l lane, op *launch) error {
	var args [4]uint64
	var list []uint64
	n := uint64(op.n)
	grid := uint32((op.n + elementwiseBlock - 1) / elementwiseBlock)
	switch op.kernel {
	case kAdd, kMul:
		args = [4]uint64{uint64(op.out), uint64(op.in[0]), uint64(op.in[1]), n}
		list = args[:4]
		// One thread per float4 plus one per trailing element.
		grid = uint32((op.n/4 + op.n%4 + elementwiseBlock - 1) / elementwiseBlock)
	case kSoftcap:
		args = [4]uint64{uint64(op.out), uint64(op.in[0]), uint64(math.Float32bits(op.scalar)), n}
		list = args[:4]
		grid = uint32((op.n/4 + op.n%4 + elementwiseBlock - 1) / elementwiseBlock)
	case kSlowCopy:
		args = [4]uint64{uint64(op.out), uint64(op.in[0]), n, op.delay}
		list = args[:4]
		grid = min(grid, 132)
	case kSumPartial:
		args = [4]uint64{uint64(op.out), uint64(op.in[0]), n}
		list = args[:3]
		grid = uint32((op.n + sumPerBlock - 1) / sumPerBlock)
	case kUniform:
		args = [4]uint64{uint64(op.out), n, uint64(op.key[0]), uint64(op.key[1])}
		list = args[:4]
	}
	grid = max(grid, 1)
	f := b.funcs[op.kernel]
	if b.replay {
		return b.launchGraph(f, l, grid, list)
	}
	return b.do(func() error {
		return b.launcher.Launch(f, grid, elementwiseBlock, 0, cuda.Stream(l), list)
	})
}

// canFuse implements backend.
func (b *cudaBackend) canFuse() bool { return b.fusable }

// launchFused implements backend: one thread per element, the kernel
// compiled on the program's first use.
func (b *cudaBackend) launchFused(l lane, p *fusedProgram, bufs []mem, n int) error {
	f, err := b.fusedFunction(p)
	if err != nil {
		return err
	}
	var args [maxFusedBuffers + 1]uint64
	for i, m := range bufs {
		args[i] = uint64(m)
	}
	args[len(bufs)] = uint64(n)
	list := args[:len(bufs)+1]
	grid := max(uint32((n+elementwiseBlock-1)/elementwiseBlock), 1)
	if b.replay {
		return b.launchGraph(f, l, grid, list)
	}
	return b.do(func() error {
		return b.launcher.Launch(f, grid, elementwiseBlock, 0, cuda.Stream(l), list)
	})
}

// fusedFunction returns the kernel of p, compiling and loading it with
// NVRTC the first time; the module is unloaded by close.
func (b *cudaBackend) fusedFunction(p *fusedProgram) (cuda.Function, error) {
	// An evaluation repeated in a loop runs the same program every time:
	// comparing with the last one skips the lock and the hashing of the
	// program's key.
	if last := b.lastFused.Load(); last != nil && last.prog == *p {
		return last.f, nil
	}
	b.fuseMu.Lock()
	defer b.fuseMu.Unlock()
	if f, ok := b.fused[*p]; ok {
		b.lastFused.Store(&fusedKernel{prog: *p, f: f})
		return f, nil
	}
	var f cuda.Function
	err := b.do(func() error {
		ptx, err := b.compile("gl_fused.cu", p.cudaSource())
		if err != nil {
			return err
		}
		mod, err := b.drv.ModuleLoadData(ptx)
		if err != nil {
			return fmt.Errorf("load fused kernel %s: %w", p.key(), err)
		}
		b.modules = append(b.modules, mod)
		f, err = b.drv.ModuleGetFunction(mod, "gl_fused")
		return err
	})
	if err != nil {
		return 0, err
	}
	b.fused[*p] = f
	b.lastFused.Store(&fusedKernel{prog: *p, f: f})
	return f, nil
}

// close implements backend.
func (b *cudaBackend) close() error {
	errs := []error{b.dropGraphs(0, true)}
	err := b.do(func() error {
		for _, m := range b.modules {
			errs = append(errs, b.drv.ModuleUnload(m))
		}
		b.modules = nil
		if b.xfer != 0 {
			errs = append(errs, b.drv.StreamDestroy(b.xfer))
			b.xfer = 0
		}
		return nil
	})
	errs = append(errs, err, b.drv.PrimaryCtxRelease(b.dev))
	b.launcher.Close()
	return errors.Join(errs...)
}
