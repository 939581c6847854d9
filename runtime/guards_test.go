package runtime

import (
	"testing"
	"time"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/internal/testhooks"
	"github.com/stretchr/testify/require"
)

// slowDelay keeps the producer running well after the reader on another
// lane could have started.
const slowDelay = 50 * time.Millisecond

// guardN is the element count of the guard scenarios.
const guardN = 4096

// producerReader runs a slow producer on lane 0 and a reader on lane 1
// separated by a barrier, and returns how many elements the reader saw
// stale.
func producerReader(t *testing.T, d *Device) int {
	t.Helper()
	want := rttest.Ramp(guardN, func(i int) float32 { return float32(i + 1) })
	src := rttest.Upload(t, d, want)
	mid := rttest.Upload(t, d, make([]float32, guardN))
	zero := rttest.Upload(t, d, make([]float32, guardN))
	out := rttest.Upload(t, d, make([]float32, guardN))
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	cb.UseLane(0)
	require.NoError(t, cb.SlowCopy(mid, src, slowDelay))
	require.NoError(t, cb.Barrier())
	cb.UseLane(1)
	require.NoError(t, cb.Add(out, mid, zero))
	require.NoError(t, cb.Wait())
	got, err := out.Floats()
	require.NoError(t, err)
	require.NoError(t, Synchronize(d)) // let a producer left running finish
	require.NoError(t, cb.release())
	return rttest.Mismatches(got, want)
}

// TestBarrierOrdersDependentDispatch: the reader on lane 1 sees everything
// the slow producer on lane 0 wrote before the barrier; with the barrier
// switched off it does not, which proves the test can fail.
func TestBarrierOrdersDependentDispatch(t *testing.T) {
	d := rttest.OpenAdversarial(t, Open)
	require.Zero(t, producerReader(t, d), "a barrier must order the reader after the producer")

	restore := testhooks.DisableBarrier(true)
	stale := producerReader(t, d)
	restore()
	t.Logf("%s: without the barrier the reader saw %d of %d elements stale", d, stale, guardN)
	require.Positive(t, stale, "without the barrier the reader must see stale elements; otherwise this test guards nothing")
}

// retainScenario: command buffer cb1 starts a slow producer, another command
// buffer completes (the pool drains) and a third takes an encoder from the
// pool; then cb1 puts a barrier and a reader on another lane. It returns
// how many elements the reader saw stale.
func retainScenario(t *testing.T, d *Device) int {
	t.Helper()
	want := rttest.Ramp(guardN, func(i int) float32 { return float32(2*i + 1) })
	src := rttest.Upload(t, d, want)
	mid := rttest.Upload(t, d, make([]float32, guardN))
	zero := rttest.Upload(t, d, make([]float32, guardN))
	out := rttest.Upload(t, d, make([]float32, guardN))
	scratch := rttest.Upload(t, d, make([]float32, guardN))
	cbs := make([]*CommandBuffer, 3)
	for i := range cbs {
		var err error
		cbs[i], err = d.NewCommandBuffer()
		require.NoError(t, err)
	}
	cb1, cb2, cb3 := cbs[0], cbs[1], cbs[2]

	cb1.UseLane(0)
	require.NoError(t, cb1.SlowCopy(mid, src, slowDelay))
	// Another command buffer completes: the pool drains.
	require.NoError(t, cb2.Add(scratch, zero, zero))
	require.NoError(t, cb2.Wait())
	// Another command buffer takes an encoder from the pool.
	require.NoError(t, cb3.Add(scratch, zero, zero))
	// cb1 goes on: barrier, then the dependent read on another lane.
	require.NoError(t, cb1.Barrier())
	cb1.UseLane(1)
	require.NoError(t, cb1.Add(out, mid, zero))
	require.NoError(t, cb1.Wait())
	got, err := out.Floats()
	require.NoError(t, err)
	require.NoError(t, cb3.Wait())
	require.NoError(t, Synchronize(d))
	for _, cb := range cbs {
		require.NoError(t, cb.release())
	}
	return rttest.Mismatches(got, want)
}

// TestRetainKeepsEncoderAcrossDrain: the retain in getOrCreateEncoder keeps
// a command buffer's encoder out of the pool's drain. Without it the
// encoder is recycled onto other lanes under the command buffer, its
// barrier no longer covers the producer, and the reader sees stale data.
func TestRetainKeepsEncoderAcrossDrain(t *testing.T) {
	d := rttest.OpenAdversarial(t, Open)
	require.Zero(t, retainScenario(t, d), "a retained encoder must survive the drain and keep ordering its lanes")

	restore := testhooks.SkipRetain(true)
	stale := retainScenario(t, d)
	restore()
	t.Logf("%s: without the retain the reader saw %d of %d elements stale", d, stale, guardN)
	require.Positive(t, stale, "without the retain the recycled encoder must lose the ordering; otherwise this test guards nothing")
}

// TestResetRoutesThroughEndActiveEncoder: reset ends and releases the
// active encoder, leaving the reference count balanced.
func TestResetRoutesThroughEndActiveEncoder(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Upload(t, d, make([]float32, 16))
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	require.NoError(t, cb.Add(x, x, x))
	enc := cb.active
	require.NotNil(t, enc)
	require.EqualValues(t, 1, enc.refs.Load(), "getOrCreateEncoder retains")
	cb.reset()
	require.Nil(t, cb.active, "reset gives up the active encoder")
	require.EqualValues(t, 0, enc.refs.Load(), "reset releases through endActiveEncoder")
	cb.pending = true
	require.NoError(t, cb.Wait())
	require.Zero(t, d.Stats().Outstanding, "the drain takes the released encoder back")
	require.NoError(t, cb.release())
}

// TestEncoderCountsBalanceAcrossEvals: after every Eval each encoder is
// back in the pool, and encoders and lanes stay bounded.
func TestEncoderCountsBalanceAcrossEvals(t *testing.T) {
	d := rttest.Open(t, Open)
	a := rttest.Array(t, FromSlice, d, rttest.Ramp(100, func(i int) float32 { return float32(i) }))
	for range 50 {
		r := Softcap(Mul(Add(a, a), a), 5)
		require.NoError(t, Eval(r))
		s := d.Stats()
		require.Zero(t, s.Outstanding)
		require.LessOrEqual(t, s.Encoders, poolSets)
		require.LessOrEqual(t, s.Lanes, poolSets*d.cfg.lanes)
		require.NoError(t, r.Free())
	}
}

// TestFreeWhileInFlightDefersRelease: a command buffer keeps the memory of
// a buffer freed during its work until Wait.
func TestFreeWhileInFlightDefersRelease(t *testing.T) {
	d := rttest.Open(t, Open)
	src := rttest.Upload(t, d, rttest.Ramp(256, func(i int) float32 { return float32(i) }))
	dst := rttest.Upload(t, d, make([]float32, 256))
	base := d.Stats().LiveBuffers
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	require.NoError(t, cb.SlowCopy(dst, src, 20*time.Millisecond))
	require.NoError(t, src.Free())
	require.Equal(t, base, d.Stats().LiveBuffers, "memory of an in-flight buffer stays allocated")
	require.NoError(t, cb.Wait())
	require.Equal(t, base-1, d.Stats().LiveBuffers, "and is released at completion")
	got, err := dst.Floats()
	require.NoError(t, err)
	require.Equal(t, float32(255), got[255])
	require.NoError(t, cb.release())
}
