//go:build linux

package cuda

import (
	"errors"
	"os"
	goruntime "runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// open returns the driver and a current primary context, or skips the test
// where no driver loads.
func open(t testing.TB) *Driver {
	t.Helper()
	d, err := LoadDriver()
	if err != nil {
		t.Skipf("no CUDA driver: %v", err)
	}
	goruntime.LockOSThread()
	t.Cleanup(goruntime.UnlockOSThread)
	dev, err := d.DeviceGet(0)
	require.NoError(t, err)
	ctx, err := d.PrimaryCtxRetain(dev)
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.PrimaryCtxRelease(dev) })
	require.NoError(t, d.SetCurrent(ctx))
	return d
}

func TestErrorCarriesDriverName(t *testing.T) {
	d := open(t)
	_, err := d.MemAlloc(1 << 50)
	var e *Error
	require.True(t, errors.As(err, &e), "got %v", err)
	require.Equal(t, "CUDA_ERROR_OUT_OF_MEMORY", e.Name)
	require.True(t, e.IsOutOfMemory())
	require.Contains(t, err.Error(), "cuMemAlloc_v2")
}

func TestCompileLoadLaunchAndCopy(t *testing.T) {
	d := open(t)
	n, err := LoadNVRTC()
	if err != nil {
		t.Skipf("no NVRTC: %v", err)
	}
	src, err := os.ReadFile("../../kernels/elementwise.cu")
	require.NoError(t, err)
	ptx, err := n.Compile(string(src), "elementwise.cu", []string{"--gpu-architecture=compute_90"})
	require.NoError(t, err)
	mod, err := d.ModuleLoadData(ptx)
	require.NoError(t, err)
	f, err := d.ModuleGetFunction(mod, "gl_add")
	require.NoError(t, err)

	const count = 1027
	a, b := make([]float32, count), make([]float32, count)
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i)
	}
	s, err := d.StreamCreateNonBlocking()
	require.NoError(t, err)
	bufs := make([]DevicePtr, 3)
	for i := range bufs {
		bufs[i], err = d.MemAlloc(4 * count)
		require.NoError(t, err)
	}
	var pin goruntime.Pinner
	pin.Pin(&a[0])
	pin.Pin(&b[0])
	require.NoError(t, d.MemcpyHtoDAsync(bufs[1], unsafe.Pointer(&a[0]), 4*count, s))
	require.NoError(t, d.MemcpyHtoDAsync(bufs[2], unsafe.Pointer(&b[0]), 4*count, s))
	require.NoError(t, d.LaunchKernel(f, (count+255)/256, 256, 0, s, []uint64{uint64(bufs[0]), uint64(bufs[1]), uint64(bufs[2]), count}))
	out := make([]float32, count)
	pin.Pin(&out[0])
	require.NoError(t, d.MemcpyDtoHAsync(unsafe.Pointer(&out[0]), bufs[0], 4*count, s))
	require.NoError(t, d.StreamSynchronize(s))
	pin.Unpin()
	for i := range out {
		require.Equal(t, float32(3*i), out[i], "element %d", i)
	}
	for _, p := range bufs {
		require.NoError(t, d.MemFree(p))
	}
	require.NoError(t, d.StreamDestroy(s))
	require.NoError(t, d.ModuleUnload(mod))
}

func TestCompileErrorCarriesLog(t *testing.T) {
	open(t)
	n, err := LoadNVRTC()
	if err != nil {
		t.Skipf("no NVRTC: %v", err)
	}
	_, err = n.Compile(`extern "C" __global__ void k() { undeclared_thing(); }`, "bad.cu", nil)
	var e *Error
	require.True(t, errors.As(err, &e), "got %v", err)
	require.Equal(t, "NVRTC_ERROR_COMPILATION", e.Name)
	require.Contains(t, e.Log, "undeclared_thing")
}

// TestQueriesAndSpinWait: the queries answer done for finished work, and
// EventWait returns for a reached event with and without a spin budget.
func TestQueriesAndSpinWait(t *testing.T) {
	d := open(t)
	s, err := d.StreamCreateNonBlocking()
	require.NoError(t, err)
	defer func() { require.NoError(t, d.StreamDestroy(s)) }()
	e, err := d.EventCreate()
	require.NoError(t, err)
	defer func() { require.NoError(t, d.EventDestroy(e)) }()
	p, err := d.MemAlloc(4 << 20)
	require.NoError(t, err)
	defer func() { require.NoError(t, d.MemFree(p)) }()
	for _, spin := range []time.Duration{0, 100 * time.Microsecond} {
		require.NoError(t, d.MemsetD32Async(p, 7, 1<<20, s))
		require.NoError(t, d.EventRecord(e, s))
		require.NoError(t, d.EventWait(e, spin))
		done, err := d.EventQuery(e)
		require.NoError(t, err)
		require.True(t, done, "the event waited for is reached")
		done, err = d.StreamQuery(s)
		require.NoError(t, err)
		require.True(t, done, "the stream's work before the event is done")
	}
}
