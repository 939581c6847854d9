package gpu_test

import (
	"testing"

	"github.com/guardlint/guardlint/runtime"
	"github.com/guardlint/guardlint/runtime/testhooks"
	"github.com/stretchr/testify/require"
)

// evalLevelN is the element count of the Eval barrier scenario on each
// backend: large enough that the first level's add is still running when
// the second level's multiply starts on the other lane. On the H200 an add
// of 2^24 elements takes tens of microseconds, several launches' worth; on
// the CPU backend 2^16 elements take milliseconds.
func evalLevelN(d *runtime.Device) int {
	if d.Backend() == runtime.BackendCUDA {
		return 1 << 24
	}
	return 1 << 16
}

// evalLevels evaluates (a+b)*c, whose add and multiply Eval encodes as two
// levels on two lanes with a barrier between them, and returns how many
// elements of the result are wrong. round varies the operands, so that
// memory recycled from an earlier round never holds the right answer.
func evalLevels(t *testing.T, d *runtime.Device, round int) int {
	t.Helper()
	n := evalLevelN(d)
	a := ramp(n, func(i int) float32 { return float32(i%4093) + float32(round) })
	b := ramp(n, func(i int) float32 { return float32(i%7) + 0.5 })
	c := ramp(n, func(i int) float32 { return float32(round + 2) })
	x, y, z := array(t, d, a), array(t, d, b), array(t, d, c)
	sum := runtime.Add(x, y)
	r := runtime.Mul(sum, z)
	got, err := r.Data()
	require.NoError(t, err)
	for _, arr := range []*runtime.Array{x, y, z, sum, r} {
		require.NoError(t, arr.Free())
	}
	return mismatches(got, addMul(a, b, c))
}

// TestEvalBarrierDiscriminates: Eval's barrier between dependent levels
// orders the multiply after the add, so (a+b)*c is exact; with the barrier
// switched off, the multiply on the other lane reads the add's output
// before it is written. An unordered reader overtakes the writer only
// when their timing lets it, so the run without the barrier tries up to
// five rounds and needs stale elements in one; every round with the
// barrier must be exact.
func TestEvalBarrierDiscriminates(t *testing.T) {
	d := openDevice(t)
	n := evalLevelN(d)
	for round := range 3 {
		wrong := evalLevels(t, d, round)
		t.Logf("%s: wrong elements with the barrier, round %d: %d of %d", d, round, wrong, n)
		require.Zerof(t, wrong, "round %d: the barrier between levels must order the multiply after the add", round)
	}

	restore := testhooks.DisableBarrier(true)
	defer restore()
	wrong := 0
	for round := 3; round < 8 && wrong == 0; round++ {
		wrong = evalLevels(t, d, round)
		t.Logf("%s: wrong elements without the barrier, round %d: %d of %d", d, round, wrong, n)
	}
	require.Positive(t, wrong, "without the barrier the multiply must read stale sums in some round; otherwise this test guards nothing")
}
