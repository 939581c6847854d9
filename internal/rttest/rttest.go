// Package rttest holds the test helpers that the runtime's own tests
// (runtime/) and its GPU regression guards (gpu_test/) share: opening a
// device for one test, uploading data, counting wrong elements.
//
// The runtime's tests are in package runtime, since they reach unexported
// state, and package runtime cannot import a package that imports it. So
// the helpers import nothing of the runtime: each takes the runtime
// function it wraps as an argument (Open, FromSlice) or the value it
// calls through a one-method interface (BufferFrom), and Go infers the
// runtime's types at the call.
package rttest

import (
	"math"
	"testing"

	"github.com/guardlint/guardlint/internal/testhooks"
	"github.com/stretchr/testify/require"
)

// Open opens a device with open(opts...) and closes it when the test
// ends, failing the test if either fails.
func Open[D interface{ Close() error }, O any](t testing.TB, open func(...O) (D, error), opts ...O) D {
	t.Helper()
	d, err := open(opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}

// OpenAdversarial is Open with testhooks.AdversarialLanes on while the
// device opens: a CPU device then runs its lanes in the order that makes a
// reader no event orders after its writer run first, every run, whatever
// the load, so that the discriminating guards' "without" halves never
// pass by luck. A CUDA device keeps the GPU's own timing.
func OpenAdversarial[D interface{ Close() error }, O any](t testing.TB, open func(...O) (D, error), opts ...O) D {
	t.Helper()
	restore := testhooks.AdversarialLanes(true)
	defer restore()
	return Open(t, open, opts...)
}

// Ramp returns n elements f(i).
func Ramp(n int, f func(i int) float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// Upload copies data into a new buffer of d, failing the test if that
// fails, and frees the buffer when the test ends (a buffer the test freed
// itself, or one of a closed device, is skipped).
func Upload[B interface{ Free() error }](t testing.TB, d interface {
	BufferFrom([]float32) (B, error)
}, data []float32) B {
	t.Helper()
	b, err := d.BufferFrom(data)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Free() })
	return b
}

// Array uploads data as an array of d through fromSlice (the runtime's
// FromSlice), failing the test if that fails.
func Array[A, D any](t testing.TB, fromSlice func(D, []float32, ...int) (A, error), d D, data []float32, shape ...int) A {
	t.Helper()
	a, err := fromSlice(d, data, shape...)
	require.NoError(t, err)
	return a
}

// Mismatches counts the elements of want that got does not hold bit for
// bit, a missing element counting as wrong. Exact comparison is the
// point: a stale element is an old value, not a rounding difference.
func Mismatches(got, want []float32) int {
	n := 0
	for i := range want {
		if i >= len(got) || math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			n++
		}
	}
	return n
}
