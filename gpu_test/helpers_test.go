package gpu_test

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// TestMain names the backend the guards run on and how many devices it
// has, so that a log shows whether a run exercised CUDA or the CPU backend
// and whether the multi-device guards could run.
func TestMain(m *testing.M) {
	n, err := runtime.DeviceCount()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: cannot count devices: %v\n", err)
		os.Exit(1)
	}
	d, err := runtime.Open()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: cannot open a device: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("gpu_test: backend %s, kernels %s, device %s, %d device(s)\n", d.Backend(), d.KernelSource(), d, n)
	if err := d.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: close: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// openDevice opens a device the way the runtime chooses (or as the
// environment forces) and closes it when the test ends.
func openDevice(t testing.TB, opts ...runtime.Option) *runtime.Device {
	t.Helper()
	d, err := runtime.Open(opts...)
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

// upload copies data into a new buffer of d.
func upload(t testing.TB, d *runtime.Device, data []float32) *runtime.Buffer {
	t.Helper()
	b, err := d.BufferFrom(data)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Free() })
	return b
}

// array uploads data as an array of d.
func array(t testing.TB, d *runtime.Device, data []float32) *runtime.Array {
	t.Helper()
	a, err := runtime.FromSlice(d, data)
	require.NoError(t, err)
	return a
}

// read returns a copy of a buffer's contents.
func read(t testing.TB, b *runtime.Buffer) []float32 {
	t.Helper()
	got, err := b.Floats()
	require.NoError(t, err)
	return got
}

// mismatches counts the elements of got that differ from want bit for bit.
// Exact comparison is the point: a stale element is an old value, not a
// rounding difference.
func mismatches(got, want []float32) int {
	n := 0
	for i := range want {
		if i >= len(got) || math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			n++
		}
	}
	return n
}

// addMul is the host's (a+b)*c, rounded to float32 after each operation as
// the two kernels round.
func addMul(a, b, c []float32) []float32 {
	return ramp(len(a), func(i int) float32 {
		s := float32(a[i] + b[i])
		return float32(s * c[i])
	})
}
