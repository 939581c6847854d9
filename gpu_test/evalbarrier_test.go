package gpu_test

import (
	"math"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/internal/testhooks"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// evalLevelN is the length of the long sum in the Eval barrier scenario on
// each backend: long enough that its passes are still running when the
// second level starts on the other lane. On the H200 the passes over 2^26
// elements (256 MiB) take tens of microseconds, several launches' worth;
// on the CPU backend 2^18 elements take milliseconds.
func evalLevelN(d *runtime.Device) int {
	if d.Backend() == runtime.BackendCUDA {
		return 1 << 26
	}
	return 1 << 18
}

// evalLevels evaluates sum(x) + sum(y) in one Eval, with x of four elements
// and y long. Eval puts the two sums (level 0) on lanes 0 and 1 and the add
// (level 1) on lane 0, after a barrier: without it, the add waits for the
// short sum on its own lane but not for the long one on the other. It
// reports whether the add saw both sums as they were finally written;
// round varies y, so that memory recycled from an earlier round never
// holds the right sum.
func evalLevels(t *testing.T, d *runtime.Device, round int) bool {
	t.Helper()
	n := evalLevelN(d)
	x := rttest.Array(t, runtime.FromSlice, d, []float32{1, 2, 3, 4})
	y := rttest.Array(t, runtime.FromSlice, d, rttest.Ramp(n, func(i int) float32 { return float32(i%5 + round) }))
	sx, sy := runtime.Sum(x), runtime.Sum(y)
	r := runtime.Add(sx, sy)
	require.NoError(t, runtime.Eval(r))
	got, err := r.Item()
	require.NoError(t, err)
	a, err := sx.Item()
	require.NoError(t, err)
	b, err := sy.Item()
	require.NoError(t, err)
	for _, arr := range []*runtime.Array{x, y, sx, sy, r} {
		require.NoError(t, arr.Free())
	}
	return math.Float32bits(got) == math.Float32bits(float32(a+b))
}

// TestEvalBarrierDiscriminates: Eval's barrier between dependent levels
// orders the add after both sums it reads; with the barrier switched off,
// the add reads the long sum before its last pass writes it. An unordered
// reader overtakes its writer only when their timing lets it, so the run
// without the barrier tries up to ten rounds and needs a stale sum in one;
// every round with the barrier must be exact.
func TestEvalBarrierDiscriminates(t *testing.T) {
	evalBarrierDiscriminates(t, rttest.OpenAdversarial(t, runtime.Open))
}

// evalBarrierDiscriminates runs the Eval barrier scenario on d with the
// barrier and without it.
func evalBarrierDiscriminates(t *testing.T, d *runtime.Device) {
	t.Helper()
	for round := range 3 {
		require.Truef(t, evalLevels(t, d, round), "round %d: the barrier between levels must order the add after both sums", round)
	}
	t.Logf("%s: with the barrier, 3 of 3 rounds exact", d)

	restore := testhooks.DisableBarrier(true)
	defer restore()
	stale, rounds := 0, 0
	for round := 3; round < 13 && stale == 0; round++ {
		rounds++
		if !evalLevels(t, d, round) {
			stale++
		}
	}
	t.Logf("%s: without the barrier, the add read a stale sum in round %d of %d tried", d, rounds, rounds)
	require.Positive(t, stale, "without the barrier the add must read a stale sum in some round; otherwise this test guards nothing")
}
