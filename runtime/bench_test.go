package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// bandwidthElems is 256 MiB of float32.
const bandwidthElems = 256 << 20 / 4

// cudaBench opens a CUDA device or skips: the CPU backend's figures mean
// nothing for these comparisons.
func cudaBench(b *testing.B) *Device {
	b.Helper()
	d := rttest.Open(b, Open)
	if d.Backend() != BackendCUDA {
		b.Skip("bandwidth and dispatch benchmarks are for the CUDA backend")
	}
	return d
}

// BenchmarkBandwidth compares an elementwise add of 256 MiB operands with
// a device-to-device copy of 256 MiB. Bytes per op count every byte read
// and written (add: 3 x 256 MiB, copy: 2 x 256 MiB), so MB/s compare
// directly.
func BenchmarkBandwidth(b *testing.B) {
	d := cudaBench(b)
	x := rttest.Upload(b, d, make([]float32, bandwidthElems))
	y := rttest.Upload(b, d, make([]float32, bandwidthElems))
	out := rttest.Upload(b, d, make([]float32, bandwidthElems))
	cb, err := d.NewCommandBuffer()
	require.NoError(b, err)
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(2 * 4 * bandwidthElems)
		cb.UseLane(0)
		require.NoError(b, cb.Copy(out, x))
		require.NoError(b, cb.Wait())
		b.ResetTimer()
		cb.UseLane(0)
		for range b.N {
			require.NoError(b, cb.Copy(out, x))
		}
		require.NoError(b, cb.Wait())
	})
	b.Run("add", func(b *testing.B) {
		b.SetBytes(3 * 4 * bandwidthElems)
		cb.UseLane(0)
		require.NoError(b, cb.Add(out, x, y))
		require.NoError(b, cb.Wait())
		b.ResetTimer()
		cb.UseLane(0)
		for range b.N {
			require.NoError(b, cb.Add(out, x, y))
		}
		require.NoError(b, cb.Wait())
	})
}

// dispatchBatch is how many dispatches are queued between untimed waits,
// well below the launch queue's depth, so the timer sees host time only.
const dispatchBatch = 256

// BenchmarkDispatch measures the host time of one dispatch of a small add
// through a command buffer; BenchmarkBareLaunch (CUDA only) is the same
// launch through the bare binding.
func BenchmarkDispatch(b *testing.B) {
	d := cudaBench(b)
	x := rttest.Upload(b, d, make([]float32, 1024))
	out := rttest.Upload(b, d, make([]float32, 1024))
	cb, err := d.NewCommandBuffer()
	require.NoError(b, err)
	b.ResetTimer()
	for i := range b.N {
		if err := cb.Add(out, x, x); err != nil {
			b.Fatal(err)
		}
		if i%dispatchBatch == dispatchBatch-1 {
			b.StopTimer()
			require.NoError(b, cb.Wait())
			b.StartTimer()
		}
	}
	b.StopTimer()
	require.NoError(b, cb.Wait())
}

// BenchmarkRoundTrip is a writer, a barrier and a reader on n = 4096:
// (a + b) * c, evaluated and synchronised, as in bench/torch_roundtrip.py.
func BenchmarkRoundTrip(b *testing.B) {
	d := rttest.Open(b, Open)
	const n = 4096
	a := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return float32(i) }))
	bb := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return 1 }))
	c := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return 2 }))
	b.ResetTimer()
	for range b.N {
		t := Add(a, bb)
		r := Mul(t, c)
		if err := Eval(r); err != nil {
			b.Fatal(err)
		}
		_ = t.Free()
		_ = r.Free()
	}
}
