package runtime

import (
	"math"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testSizes = []int{1, 3, 4, 5, 255, 1027, 4096, 1<<16 + 7}

func TestAddMulExact(t *testing.T) {
	d := rttest.Open(t, Open)
	for _, n := range testSizes {
		a := rttest.Ramp(n, func(i int) float32 { return float32(i)*0.5 - 3 })
		b := rttest.Ramp(n, func(i int) float32 { return 1 / float32(i+1) })
		c := rttest.Ramp(n, func(i int) float32 { return float32(i%7) - 2.25 })
		r := Mul(Add(rttest.Array(t, FromSlice, d, a), rttest.Array(t, FromSlice, d, b)), rttest.Array(t, FromSlice, d, c))
		got, err := r.Data()
		require.NoError(t, err)
		want := rttest.Ramp(n, func(i int) float32 { s := a[i] + b[i]; return s * c[i] })
		require.Zerof(t, rttest.Mismatches(got, want), "n=%d", n)
	}
}

func TestSoftcapWithinTolerance(t *testing.T) {
	d := rttest.Open(t, Open)
	for _, n := range testSizes {
		x := rttest.Ramp(n, func(i int) float32 { return float32(i%201-100) * 0.37 })
		got, err := Softcap(rttest.Array(t, FromSlice, d, x), 30).Data()
		require.NoError(t, err)
		for i, v := range got {
			want := softcap(x[i], 30)
			require.InDeltaf(t, want, v, SoftcapTolerance*30, "n=%d i=%d x=%v", n, i, x[i])
		}
	}
}

func TestSumMatchesTheSharedTree(t *testing.T) {
	d := rttest.Open(t, Open)
	for _, n := range []int{1, 7, 2048, 2049, 1<<20 + 3} {
		x := rttest.Ramp(n, func(i int) float32 { return float32(i%1000)*1e-3 + 0.1 })
		got, err := Sum(rttest.Array(t, FromSlice, d, x)).Item()
		require.NoError(t, err)
		want := refSum(x)
		require.Equalf(t, math.Float32bits(want), math.Float32bits(got), "n=%d: %v vs tree %v", n, got, want)
		var exact float64
		for _, v := range x {
			exact += float64(v)
		}
		assert.InEpsilonf(t, exact, float64(got), 1e-5, "n=%d", n)
	}
}

func TestUniformBitIdentical(t *testing.T) {
	d := rttest.Open(t, Open)
	Seed(42)
	u := Uniform(d, 3, 1000)
	key := KeyFrom(42, 0)
	got, err := u.Data()
	require.NoError(t, err)
	for i, v := range got {
		require.Equalf(t, math.Float32bits(UniformAt(key, uint32(i))), math.Float32bits(v), "element %d", i)
		require.True(t, v >= 0 && v < 1)
	}
	Seed(42)
	again, err := Uniform(d, 3, 1000).Data()
	require.NoError(t, err)
	require.Equal(t, got, again, "same seed, same numbers")
	other, err := Uniform(d, 3, 1000).Data()
	require.NoError(t, err)
	require.NotEqual(t, got, other, "next key, other numbers")
	var mean float64
	for _, v := range other {
		mean += float64(v)
	}
	assert.InDelta(t, 0.5, mean/float64(len(other)), 0.03)
}

func TestCopyAndSlowCopy(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Ramp(1000, func(i int) float32 { return float32(i) })
	src, dst, slow := rttest.Upload(t, d, x), rttest.Upload(t, d, make([]float32, 1000)), rttest.Upload(t, d, make([]float32, 1000))
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	require.NoError(t, cb.Copy(dst, src))
	require.NoError(t, cb.SlowCopy(slow, src, 0))
	require.NoError(t, cb.Wait())
	for _, b := range []*Buffer{dst, slow} {
		got, err := b.Floats()
		require.NoError(t, err)
		require.Equal(t, x, got)
	}
}
