package gpu_test

import (
	"testing"
	"time"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/internal/testhooks"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// guardN is the element count of every barrier and retain scenario.
const guardN = 4096

// slowDelay keeps a producer running long after a reader on another lane
// could have started: far longer than a launch, so a reader that is not
// ordered after the producer reads before the producer writes.
const slowDelay = 50 * time.Millisecond

// backlogDelay is how long lane 0 is kept busy before the smoke's writer
// runs there. A 4096-element add finishes on a GPU before the host has
// launched the reader on the other lane, so without a backlog a missing
// barrier would go unseen there.
const backlogDelay = 2 * time.Millisecond

// TestWriterBarrierReaderSmoke: a writer on lane 0 computes a+b, a barrier,
// and a reader on lane 1 multiplies the writer's output by c; sixteen
// times over, with new operands each time, every element of (a+b)*c is
// exact. Lane 0 starts each round with a short delay queued before the
// writer, so that a reader not ordered by the barrier would run first.
func TestWriterBarrierReaderSmoke(t *testing.T) {
	d := rttest.OpenAdversarial(t, runtime.Open)
	zeros := make([]float32, guardN)
	ba, bb, bc := rttest.Upload(t, d, zeros), rttest.Upload(t, d, zeros), rttest.Upload(t, d, zeros)
	sum, out := rttest.Upload(t, d, zeros), rttest.Upload(t, d, zeros)
	backlogIn, backlogOut := rttest.Upload(t, d, zeros[:1]), rttest.Upload(t, d, zeros[:1])
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	for iter := range 16 {
		// Fresh operands and cleared outputs, so that what a reader left
		// unordered could see is never the right answer.
		a := rttest.Ramp(guardN, func(i int) float32 { return float32(i)*0.5 - 700 + float32(iter) })
		b := rttest.Ramp(guardN, func(i int) float32 { return float32((i+iter)%13) + 0.25 })
		c := rttest.Ramp(guardN, func(i int) float32 { return 1 / float32((i+iter)%7+1) })
		for _, w := range []struct {
			buf  *runtime.Buffer
			data []float32
		}{{ba, a}, {bb, b}, {bc, c}, {sum, zeros}, {out, zeros}} {
			require.NoError(t, w.buf.Write(w.data))
		}
		cb.UseLane(0)
		require.NoError(t, cb.SlowCopy(backlogOut, backlogIn, backlogDelay))
		require.NoError(t, cb.Add(sum, ba, bb))
		require.NoError(t, cb.Barrier())
		cb.UseLane(1)
		require.NoError(t, cb.Mul(out, sum, bc))
		require.NoError(t, cb.Wait())
		require.Zerof(t, rttest.Mismatches(read(t, out), addMul(a, b, c)), "iteration %d: the reader must see all of the writer's output", iter)
	}
}

// producerReader runs a slow producer on lane 0 and, after a barrier, a
// reader on lane 1 that adds zero to the producer's output. It returns how
// many of the reader's elements are stale.
func producerReader(t *testing.T, d *runtime.Device) int {
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
	got := read(t, out)
	require.NoError(t, runtime.Synchronize(d)) // a producer left running must finish before its buffers go
	return rttest.Mismatches(got, want)
}

// TestBarrierDiscriminates: with the barrier, the reader on lane 1 sees
// everything the slow producer on lane 0 wrote; with the barrier switched
// off it sees stale elements, which proves this test can fail.
func TestBarrierDiscriminates(t *testing.T) {
	barrierDiscriminates(t, rttest.OpenAdversarial(t, runtime.Open))
}

// barrierDiscriminates runs the barrier scenario on d with the barrier and
// without it.
func barrierDiscriminates(t *testing.T, d *runtime.Device) {
	t.Helper()
	with := producerReader(t, d)
	t.Logf("%s: stale elements with the barrier: %d of %d", d, with, guardN)
	require.Zero(t, with, "the barrier must order the reader after the producer")

	restore := testhooks.DisableBarrier(true)
	without := producerReader(t, d)
	restore()
	t.Logf("%s: stale elements without the barrier: %d of %d", d, without, guardN)
	require.Positive(t, without, "without the barrier the reader must see stale elements; otherwise this test guards nothing")
}

// retainScenario: command buffer cb1 starts a slow producer; meanwhile a
// second command buffer completes, which drains the device's encoder pool,
// and a third takes an encoder from the pool. Then cb1 puts a barrier and a
// reader on another lane. It returns how many elements the reader saw
// stale.
func retainScenario(t *testing.T, d *runtime.Device) int {
	t.Helper()
	want := rttest.Ramp(guardN, func(i int) float32 { return float32(2*i + 1) })
	src := rttest.Upload(t, d, want)
	mid := rttest.Upload(t, d, make([]float32, guardN))
	zero := rttest.Upload(t, d, make([]float32, guardN))
	out := rttest.Upload(t, d, make([]float32, guardN))
	scratch := rttest.Upload(t, d, make([]float32, guardN))
	var cbs [3]*runtime.CommandBuffer
	for i := range cbs {
		var err error
		cbs[i], err = d.NewCommandBuffer()
		require.NoError(t, err)
	}
	cb1, cb2, cb3 := cbs[0], cbs[1], cbs[2]

	cb1.UseLane(0)
	require.NoError(t, cb1.SlowCopy(mid, src, slowDelay))
	require.NoError(t, cb2.Add(scratch, zero, zero))
	require.NoError(t, cb2.Wait()) // the pool drains
	require.NoError(t, cb3.Add(scratch, zero, zero))
	require.NoError(t, cb1.Barrier())
	cb1.UseLane(1)
	require.NoError(t, cb1.Add(out, mid, zero))
	require.NoError(t, cb1.Wait())
	got := read(t, out)
	require.NoError(t, cb3.Wait())
	require.NoError(t, runtime.Synchronize(d))
	return rttest.Mismatches(got, want)
}

// TestRetainDiscriminates: a command buffer keeps its encoder, and so the
// lanes its barrier orders, across a drain of the pool caused by another
// command buffer; with the retain skipped the encoder is recycled onto
// other lanes and the reader sees stale elements.
func TestRetainDiscriminates(t *testing.T) {
	retainDiscriminates(t, rttest.OpenAdversarial(t, runtime.Open))
}

// retainDiscriminates runs the retain scenario on d with the retain and
// without it.
func retainDiscriminates(t *testing.T, d *runtime.Device) {
	t.Helper()
	with := retainScenario(t, d)
	t.Logf("%s: stale elements with the retain: %d of %d", d, with, guardN)
	require.Zero(t, with, "a retained encoder must survive the drain and keep ordering its lanes")

	restore := testhooks.SkipRetain(true)
	without := retainScenario(t, d)
	restore()
	t.Logf("%s: stale elements without the retain: %d of %d", d, without, guardN)
	require.Positive(t, without, "without the retain the recycled encoder must lose the ordering; otherwise this test guards nothing")
	require.Zero(t, d.Stats().Outstanding, "every encoder is back in the pool after the waits")
}
