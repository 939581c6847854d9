package runtime

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// openTest opens a device with the environment's settings and closes it
// when the test ends.
func openTest(t testing.TB, opts ...Option) *Device {
	t.Helper()
	d, err := Open(opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}

// ramp returns n elements f(i).
func ramp(n int, f func(i int) float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// fromSlice uploads data or fails the test.
func fromSlice(t testing.TB, d *Device, data []float32, shape ...int) *Array {
	t.Helper()
	a, err := FromSlice(d, data, shape...)
	require.NoError(t, err)
	return a
}

// buffer uploads data into a new buffer or fails the test.
func buffer(t testing.TB, d *Device, data []float32) *Buffer {
	t.Helper()
	b, err := d.BufferFrom(data)
	require.NoError(t, err)
	return b
}

// mismatches counts elements that differ bit for bit.
func mismatches(got, want []float32) int {
	n := 0
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			n++
		}
	}
	return n
}

// refSum applies the reduction tree of reduce.cu on the host.
func refSum(x []float32) float32 {
	words := make([]uint32, len(x))
	for i, v := range x {
		words[i] = math.Float32bits(v)
	}
	n := len(x)
	for {
		blocks := (n + sumPerBlock - 1) / sumPerBlock
		next := make([]uint32, blocks)
		for b := range blocks {
			next[b] = math.Float32bits(sumBlock(words, n, b))
		}
		if blocks == 1 {
			return math.Float32frombits(next[0])
		}
		words, n = next, blocks
	}
}
