//go:build linux

// Package cuda binds the parts of the CUDA driver API and of NVRTC that the
// runtime uses. The libraries are loaded at run time with purego, so nothing
// here needs cgo or CUDA headers to build.
//
// The binding is deliberately thin: every function maps to one driver entry
// point and returns an *Error that carries the driver's own error name and
// string. Callers are responsible for thread locking and for making a
// context current; see [SetCurrent].
package cuda

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Handle types mirror the driver's opaque pointer types.
type (
	// Device is a CUdevice ordinal handle.
	Device int32
	// Context is a CUcontext.
	Context uintptr
	// Stream is a CUstream.
	Stream uintptr
	// Event is a CUevent.
	Event uintptr
	// Module is a CUmodule.
	Module uintptr
	// Function is a CUfunction.
	Function uintptr
	// DevicePtr is a CUdeviceptr: a device address, never a Go pointer.
	DevicePtr uint64
)

// Result codes the runtime inspects.
const (
	Success              = 0
	ErrorOutOfMemory     = 2
	ErrorInvalidContext  = 201
	ErrorNotReady        = 600
	streamNonBlocking    = 0x1
	eventDisableTiming   = 0x2
	attrComputeMajor     = 75
	attrComputeMinor     = 76
	attrMultiprocessors  = 16
	driverLibraryName    = "libcuda.so.1"
	maxErrorStringLength = 512
)

// Driver holds the resolved entry points of libcuda.
type Driver struct {
	handle uintptr

	cuInit, cuDriverGetVersion, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName, cuDeviceGetAttribute uintptr
	cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease, cuCtxSetCurrent, cuCtxGetCurrent            uintptr
	cuGetErrorName, cuGetErrorString                                                                 uintptr
	cuMemAlloc, cuMemFree, cuMemGetInfo                                                              uintptr
	cuMemcpyHtoDAsync, cuMemcpyDtoHAsync, cuMemcpyDtoDAsync, cuMemsetD32Async                        uintptr
	cuStreamCreate, cuStreamDestroy, cuStreamSynchronize, cuStreamWaitEvent, cuStreamQuery           uintptr
	cuEventCreate, cuEventDestroy, cuEventRecord, cuEventSynchronize, cuEventQuery                   uintptr
	cuModuleLoadData, cuModuleUnload, cuModuleGetFunction, cuLaunchKernel                            uintptr
	// The graph entry points are optional (graph.go): zero where the
	// driver lacks them.
	cuGraphCreate, cuGraphDestroy, cuGraphAddKernelNode, cuGraphInstantiate uintptr
	cuGraphExecKernelNodeSetParams, cuGraphLaunch, cuGraphExecDestroy       uintptr
}

var (
	driverOnce sync.Once
	driver     *Driver
	driverErr  error
)

// LoadDriver opens libcuda.so.1 once per process, resolves the entry points
// and calls cuInit. It returns the same driver or the same error every time.
func LoadDriver() (*Driver, error) {
	driverOnce.Do(func() { driver, driverErr = loadDriver() })
	return driver, driverErr
}

// loadDriver opens and initialises the driver library.
func loadDriver() (*Driver, error) {
	h, err := purego.Dlopen(driverLibraryName, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", driverLibraryName, err)
	}
	d := &Driver{handle: h}
	syms := []struct {
		dst  *uintptr
		name string
	}{
		{&d.cuInit, "cuInit"}, {&d.cuDriverGetVersion, "cuDriverGetVersion"},
		{&d.cuDeviceGetCount, "cuDeviceGetCount"}, {&d.cuDeviceGet, "cuDeviceGet"},
		{&d.cuDeviceGetName, "cuDeviceGetName"}, {&d.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
		{&d.cuCtxSetCurrent, "cuCtxSetCurrent"}, {&d.cuCtxGetCurrent, "cuCtxGetCurrent"},
		{&d.cuGetErrorName, "cuGetErrorName"}, {&d.cuGetErrorString, "cuGetErrorString"},
		{&d.cuMemAlloc, "cuMemAlloc_v2"}, {&d.cuMemFree, "cuMemFree_v2"}, {&d.cuMemGetInfo, "cuMemGetInfo_v2"},
		{&d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"}, {&d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
		{&d.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"}, {&d.cuMemsetD32Async, "cuMemsetD32Async"},
		{&d.cuStreamCreate, "cuStreamCreate"}, {&d.cuStreamDestroy, "cuStreamDestroy_v2"},
		{&d.cuStreamSynchronize, "cuStreamSynchronize"}, {&d.cuStreamWaitEvent, "cuStreamWaitEvent"},
		{&d.cuStreamQuery, "cuStreamQuery"},
		{&d.cuEventCreate, "cuEventCreate"}, {&d.cuEventDestroy, "cuEventDestroy_v2"},
		{&d.cuEventRecord, "cuEventRecord"}, {&d.cuEventSynchronize, "cuEventSynchronize"},
		{&d.cuEventQuery, "cuEventQuery"},
		{&d.cuModuleLoadData, "cuModuleLoadData"}, {&d.cuModuleUnload, "cuModuleUnload"},
		{&d.cuModuleGetFunction, "cuModuleGetFunction"}, {&d.cuLaunchKernel, "cuLaunchKernel"},
	}
	for _, s := range syms {
		p, err := purego.Dlsym(h, s.name)
		if err != nil {
			return nil, fmt.Errorf("resolve %s in %s: %w", s.name, driverLibraryName, err)
		}
		*s.dst = p
	}
	d.graphEntryPoints(h)
	if err := d.call("cuInit", d.cuInit, 0); err != nil {
		return nil, err
	}
	return d, nil
}

// call invokes a driver entry point and turns a non-zero CUresult into an
// *Error. The pragma keeps every pointer converted to uintptr in a caller's
// argument list alive and unmoved for the duration of the call; it also
// moves the list to the heap, one allocation per call, so the entry points
// on the hot path, whose arguments are handles and numbers only, go
// through callValues instead.
//
//go:uintptrescapes
func (d *Driver) call(op string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if r == Success {
		return nil
	}
	return d.errorFor(op, int(r))
}

// maxValueArgs is the most arguments callValues passes.
const maxValueArgs = 4

// argLists holds argument lists for purego.SyscallN, which moves the list
// it is given to the heap: a list taken from the pool is reused instead of
// one allocated per call. The pool keeps lists per processor, without a
// lock.
var argLists = sync.Pool{New: func() any { return new([maxValueArgs]uintptr) }}

// callValues is call for an entry point whose n arguments (at most
// maxValueArgs, the first n of a0..a3) are handles, device addresses or
// numbers, never Go pointers: nothing has to be kept alive, and the list
// comes from argLists, so a call allocates nothing.
func (d *Driver) callValues(op string, fn uintptr, n int, a0, a1, a2, a3 uintptr) error {
	list := argLists.Get().(*[maxValueArgs]uintptr)
	*list = [maxValueArgs]uintptr{a0, a1, a2, a3}
	r, _, _ := purego.SyscallN(fn, list[:n]...)
	argLists.Put(list)
	if r == Success {
		return nil
	}
	return d.errorFor(op, int(r))
}

// Error is a failed driver or NVRTC call.
type Error struct {
	Op      string // the entry point, e.g. "cuMemAlloc_v2"
	Code    int    // the CUresult or nvrtcResult
	Name    string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Message string // the driver's description
	Log     string // the NVRTC compile log, if any
}

// Error formats the failure with the driver's own name and string.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d): %s", e.Op, e.Name, e.Code, e.Message)
	if e.Log != "" {
		s += "\n" + e.Log
	}
	return s
}

// IsOutOfMemory reports whether the driver ran out of device memory.
func (e *Error) IsOutOfMemory() bool { return e.Name == "CUDA_ERROR_OUT_OF_MEMORY" }

// errorFor builds the *Error of a failed call, with the driver's own name
// and description of the code.
func (d *Driver) errorFor(op string, code int) *Error {
	e := &Error{Op: op, Code: code, Name: "CUDA_ERROR_UNKNOWN_CODE", Message: "no description"}
	name := new(uintptr)
	if r, _, _ := purego.SyscallN(d.cuGetErrorName, uintptr(code), uintptr(unsafe.Pointer(name))); r == Success {
		e.Name = goString(*name)
	}
	msg := new(uintptr)
	if r, _, _ := purego.SyscallN(d.cuGetErrorString, uintptr(code), uintptr(unsafe.Pointer(msg))); r == Success {
		e.Message = goString(*msg)
	}
	return e
}

// goString copies a NUL-terminated C string owned by the driver. The address
// is reinterpreted through memory rather than converted from an integer so
// that the pointer never passes through a uintptr expression.
func goString(addr uintptr) string {
	if addr == 0 {
		return ""
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	n := 0
	for n < maxErrorStringLength && *(*byte)(unsafe.Add(p, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(p), n))
}

// cString returns a NUL-terminated copy of s in Go memory.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
