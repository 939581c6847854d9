package gpu_test

import (
	"math"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// TestKernelLoadPathsAgree: a device with the embedded PTX and a device
// with the kernels compiled by NVRTC compute the same bits for every
// kernel, and both match the host where the host can compute the result
// exactly. On the CPU backend both devices run the Go kernels, so there the
// test checks only that both settings open and compute correct results;
// the comparison of the two CUDA load paths needs a GPU, and the log says
// which case ran.
func TestKernelLoadPathsAgree(t *testing.T) {
	emb := rttest.Open(t, runtime.Open, runtime.WithKernels(runtime.KernelsEmbedded))
	rtc := rttest.Open(t, runtime.Open, runtime.WithKernels(runtime.KernelsNVRTC))
	require.Equal(t, runtime.KernelsEmbedded, emb.KernelSource())
	require.Equal(t, runtime.KernelsNVRTC, rtc.KernelSource())
	require.Equal(t, emb.Backend(), rtc.Backend())
	if emb.Backend() == runtime.BackendCUDA {
		t.Logf("%s: comparing embedded PTX with NVRTC", emb)
	} else {
		t.Logf("%s: the %s backend has one kernel implementation; comparing two devices opened with each kernel setting", emb, emb.Backend())
	}

	n := 1<<18 + 5 // a float4 body, a scalar tail and a two-pass sum
	if testing.Short() {
		n = 1<<13 + 5 // still two sum passes; for runs under compute-sanitizer
	}
	const seed = 3
	a := rttest.Ramp(n, func(i int) float32 { return float32(i%1009)*0.731 - 300 })
	b := rttest.Ramp(n, func(i int) float32 { return 1 / float32(i%13+1) })
	names := []string{"add", "mul", "softcap", "sum", "uniform"}
	run := func(d *runtime.Device) [][]float32 {
		runtime.Seed(seed)
		x, y := rttest.Array(t, runtime.FromSlice, d, a), rttest.Array(t, runtime.FromSlice, d, b)
		outs := []*runtime.Array{runtime.Add(x, y), runtime.Mul(x, y), runtime.Softcap(x, 50), runtime.Sum(x), runtime.Uniform(d, n)}
		require.NoError(t, runtime.Eval(outs...))
		res := make([][]float32, len(outs))
		for i, o := range outs {
			var err error
			res[i], err = o.Data()
			require.NoError(t, err)
		}
		return res
	}
	fromEmbedded, fromNVRTC := run(emb), run(rtc)
	for i, name := range names {
		require.Zerof(t, rttest.Mismatches(fromNVRTC[i], fromEmbedded[i]), "%s differs between the embedded and the NVRTC kernels", name)
	}

	// The host's exact results: add, mul and the random numbers bit for
	// bit, softcap within the documented tolerance.
	key := runtime.KeyFrom(seed, 0)
	require.Zero(t, rttest.Mismatches(fromEmbedded[0], rttest.Ramp(n, func(i int) float32 { return float32(a[i] + b[i]) })), "add")
	require.Zero(t, rttest.Mismatches(fromEmbedded[1], rttest.Ramp(n, func(i int) float32 { return float32(a[i] * b[i]) })), "mul")
	require.Zero(t, rttest.Mismatches(fromEmbedded[4], rttest.Ramp(n, func(i int) float32 { return runtime.UniformAt(key, uint32(i)) })), "uniform")
	off := 0
	for i, got := range fromEmbedded[2] {
		want := 50 * math.Tanh(float64(a[i])/50)
		if math.Abs(float64(got)-want) > runtime.SoftcapTolerance*math.Max(1, math.Abs(want)) {
			off++
		}
	}
	require.Zero(t, off, "softcap elements beyond the tolerance")
	var total float64
	for _, v := range a {
		total += float64(v)
	}
	require.InDelta(t, total, float64(fromEmbedded[3][0]), 1e-4*math.Abs(total)+1, "sum")
}
