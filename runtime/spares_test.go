package runtime

import (
	goruntime "runtime"
	"testing"
	"time"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// roundTrip evaluates (x+x)*x on x's device and returns the result and
// the intermediate array, both evaluated.
func roundTrip(t *testing.T, x *Array) (r, mid *Array) {
	t.Helper()
	mid = Add(x, x)
	r = Mul(mid, x)
	require.NoError(t, Eval(r))
	return r, mid
}

// TestRepeatedEvalReusesItsResultBuffers: the result buffers a round trip
// frees are the next round trip's, leak nets included, and count as
// cached memory, not live, while they wait.
func TestRepeatedEvalReusesItsResultBuffers(t *testing.T) {
	for _, fused := range []bool{true, false} {
		d := rttest.Open(t, Open, WithFusion(fused))
		data := rttest.Ramp(1024, func(i int) float32 { return float32(i%7) - 3 })
		want := rttest.Ramp(1024, func(i int) float32 { return 2 * data[i] * data[i] })
		x := rttest.Array(t, FromSlice, d, data)
		base := d.Stats()
		r, mid := roundTrip(t, x)
		first := []*Buffer{r.buf, mid.buf}
		require.NoError(t, r.Free())
		require.NoError(t, mid.Free())
		s := d.Stats()
		require.Equal(t, base.LiveBuffers, s.LiveBuffers, "fused=%v: spares are not live", fused)
		require.Equal(t, base.CachedBytes+2*roundSize(4*1024), s.CachedBytes, "fused=%v: they are cached", fused)

		r, mid = roundTrip(t, x)
		require.ElementsMatch(t, first, []*Buffer{r.buf, mid.buf}, "fused=%v: the second round trip takes the first's buffers back", fused)
		for _, b := range first {
			require.True(t, b.netArmed, "fused=%v: with their leak nets", fused)
		}
		got, err := r.Data()
		require.NoError(t, err)
		require.Zero(t, rttest.Mismatches(got, want), "fused=%v", fused)
		require.Equal(t, base.LiveBuffers+2, d.Stats().LiveBuffers)
		require.NoError(t, r.Free())
		require.NoError(t, mid.Free())
	}
}

// TestReaderOfARecycledBufferSeesItFreed: a reader that took an array's
// buffer before the array was freed (Data releases the array's lock
// before it reads) sees ErrFreed once the buffer is recycled as another
// evaluation's result, not that result.
func TestReaderOfARecycledBufferSeesItFreed(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, rttest.Ramp(256, func(i int) float32 { return float32(i) }))
	r := Add(x, x)
	require.NoError(t, Eval(r))
	b, gen := r.result()
	require.NotNil(t, b)
	require.NoError(t, r.Free())

	y := Mul(x, x)
	require.NoError(t, Eval(y))
	require.Same(t, b, y.buf, "y's result is r's recycled buffer")
	dst := make([]float32, 256)
	require.ErrorIs(t, b.read(dst, gen), ErrFreed, "the reader of r sees r freed, not y's values")
	got, err := y.Data()
	require.NoError(t, err)
	require.Equal(t, float32(255*255), got[255])
	require.NoError(t, y.Free())
}

// TestDroppedSparesNetsAreStopped: spares dropped by a cache flush give
// their memory back with their leak nets stopped. A net left armed would
// fire once the dropped spare is collected and queue the free of memory
// the device no longer holds for it: on CUDA, memory that a new buffer
// owns by then.
func TestDroppedSparesNetsAreStopped(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, make([]float32, 1024))
	func() {
		for range 4 {
			r, mid := roundTrip(t, x)
			require.NoError(t, r.Free())
			require.NoError(t, mid.Free())
		}
	}()
	d.mu.Lock()
	require.Len(t, d.spares, 2, "each round trip took the last one's spares back")
	d.mu.Unlock()
	require.NoError(t, d.flushCache())
	d.mu.Lock()
	require.Empty(t, d.spares)
	d.mu.Unlock()

	// Collect the dropped spares: a sentinel dropped after them has its
	// cleanup run after a collection that found them unreachable too.
	collected := make(chan struct{})
	func() {
		sentinel := new([16]byte)
		goruntime.AddCleanup(sentinel, func(ch chan struct{}) { close(ch) }, collected)
	}()
	deadline := time.After(10 * time.Second)
	for waiting := true; waiting; {
		goruntime.GC()
		select {
		case <-collected:
			waiting = false
		case <-deadline:
			t.Fatal("the sentinel was not collected within 10 s")
		case <-time.After(time.Millisecond):
		}
	}
	goruntime.GC() // and run any cleanup queued with the sentinel's
	time.Sleep(10 * time.Millisecond)
	d.leakMu.Lock()
	defer d.leakMu.Unlock()
	require.Empty(t, d.leaked, "no dropped spare's leak net fired")
	goruntime.KeepAlive(x) // whose own net would fire otherwise
}
