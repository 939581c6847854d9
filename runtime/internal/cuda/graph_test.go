//go:build linux

package cuda

import (
	"os"
	goruntime "runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestKernelGraphReplaysWithNewArguments: a kernel graph replays its launch,
// and a launch with other buffers or another function computes with those,
// not with the ones the graph was built with.
func TestKernelGraphReplaysWithNewArguments(t *testing.T) {
	d := open(t)
	if !d.GraphsSupported() {
		t.Skip("the driver has no CUDA 12 graph entry points")
	}
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
	defer func() { require.NoError(t, d.ModuleUnload(mod)) }()
	add, err := d.ModuleGetFunction(mod, "gl_add")
	require.NoError(t, err)
	mul, err := d.ModuleGetFunction(mod, "gl_mul")
	require.NoError(t, err)

	const count = 1027
	s, err := d.StreamCreateNonBlocking()
	require.NoError(t, err)
	defer func() { require.NoError(t, d.StreamDestroy(s)) }()
	// Buffers 0 and 1 are outputs, 2 and 3 inputs.
	var bufs [4]DevicePtr
	for i := range bufs {
		bufs[i], err = d.MemAlloc(4 * count)
		require.NoError(t, err)
		defer func(p DevicePtr) { require.NoError(t, d.MemFree(p)) }(bufs[i])
	}
	x, y := make([]float32, count), make([]float32, count)
	for i := range x {
		x[i], y[i] = float32(i), 3
	}
	var pin goruntime.Pinner
	defer pin.Unpin()
	pin.Pin(&x[0])
	pin.Pin(&y[0])
	require.NoError(t, d.MemcpyHtoDAsync(bufs[2], unsafe.Pointer(&x[0]), 4*count, s))
	require.NoError(t, d.MemcpyHtoDAsync(bufs[3], unsafe.Pointer(&y[0]), 4*count, s))
	read := func(p DevicePtr) []float32 {
		out := make([]float32, count)
		var pin goruntime.Pinner
		defer pin.Unpin()
		pin.Pin(&out[0])
		require.NoError(t, d.MemcpyDtoHAsync(unsafe.Pointer(&out[0]), p, 4*count, s))
		require.NoError(t, d.StreamSynchronize(s))
		return out
	}
	grid := uint32((count/4 + count%4 + 255) / 256) // a thread per float4 and per trailing element
	args := func(out, a, b DevicePtr) []uint64 { return []uint64{uint64(out), uint64(a), uint64(b), count} }

	g, err := d.NewKernelGraph(add, grid, 256, 0, args(bufs[0], bufs[2], bufs[3]))
	require.NoError(t, err)
	defer func() { require.NoError(t, g.Destroy()) }()

	require.NoError(t, g.Launch(add, grid, 256, 0, s, args(bufs[0], bufs[2], bufs[3])))
	got := read(bufs[0])
	for i := range got {
		require.Equal(t, x[i]+3, got[i], "x+y, element %d", i)
	}
	// Other buffers: the output goes to buffer 1, the inputs are x and x.
	require.NoError(t, g.Launch(add, grid, 256, 0, s, args(bufs[1], bufs[2], bufs[2])))
	got = read(bufs[1])
	for i := range got {
		require.Equal(t, 2*x[i], got[i], "x+x into the second output, element %d", i)
	}
	// Another function over the first output's buffer.
	require.NoError(t, g.Launch(mul, grid, 256, 0, s, args(bufs[0], bufs[2], bufs[3])))
	got = read(bufs[0])
	for i := range got {
		require.Equal(t, 3*x[i], got[i], "x*y, element %d", i)
	}
}
