package rttest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeDevice and fakeBuffer stand in for the runtime's types, recording
// what the helpers call.
type fakeDevice struct {
	closed  int
	uploads [][]float32
	buffers []*fakeBuffer
}

type fakeBuffer struct{ freed int }

func (d *fakeDevice) Close() error { d.closed++; return nil }

func (d *fakeDevice) BufferFrom(data []float32) (*fakeBuffer, error) {
	d.uploads = append(d.uploads, data)
	b := &fakeBuffer{}
	d.buffers = append(d.buffers, b)
	return b, nil
}

func (b *fakeBuffer) Free() error { b.freed++; return nil }

// TestOpenAndUploadCleanUpWhenTheTestEnds: the device Open returns is
// closed, and every buffer Upload made is freed, once the test is over,
// not before.
func TestOpenAndUploadCleanUpWhenTheTestEnds(t *testing.T) {
	d := &fakeDevice{}
	var opts []string
	open := func(o ...string) (*fakeDevice, error) { opts = o; return d, nil }
	t.Run("inner", func(t *testing.T) {
		got := Open(t, open, "a", "b")
		require.Same(t, d, got)
		require.Equal(t, []string{"a", "b"}, opts)
		b := Upload(t, got, []float32{1, 2})
		require.Zero(t, d.closed, "closed only when the test ends")
		require.Zero(t, b.freed, "freed only when the test ends")
	})
	require.Equal(t, 1, d.closed)
	require.Equal(t, [][]float32{{1, 2}}, d.uploads)
	require.Equal(t, 1, d.buffers[0].freed)
}

// TestArrayPassesShapeThrough: Array calls the given FromSlice with the
// device, data and shape.
func TestArrayPassesShapeThrough(t *testing.T) {
	d := &fakeDevice{}
	var gotShape []int
	fromSlice := func(dev *fakeDevice, data []float32, shape ...int) (string, error) {
		require.Same(t, d, dev)
		gotShape = shape
		return "array", nil
	}
	require.Equal(t, "array", Array(t, fromSlice, d, []float32{1, 2, 3, 4}, 2, 2))
	require.Equal(t, []int{2, 2}, gotShape)
}

// TestMismatchesIsBitExact: values that compare equal as floats but differ
// in bits count, equal NaNs do not, and missing elements count as wrong.
func TestMismatchesIsBitExact(t *testing.T) {
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	require.Zero(t, Mismatches([]float32{1, nan, 3}, []float32{1, nan, 3}))
	require.Equal(t, 1, Mismatches([]float32{negZero}, []float32{0}))
	require.Equal(t, 2, Mismatches([]float32{1}, []float32{1, 2, 3}))
	require.Zero(t, Mismatches([]float32{1, 2, 3}, []float32{1, 2}), "elements beyond want are not compared")
	require.Equal(t, []float32{0, 2, 4}, Ramp(3, func(i int) float32 { return float32(2 * i) }))
}
