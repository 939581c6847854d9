package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// TestRepeatedDispatchHoldsOneUse: a command buffer takes one use of each
// buffer however many of its dispatches read or write it, gives every
// use back at Wait, and still refuses a buffer freed after its first use.
func TestRepeatedDispatchHoldsOneUse(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Upload(t, d, rttest.Ramp(64, func(i int) float32 { return float32(i) }))
	out := rttest.Upload(t, d, make([]float32, 64))
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	cb.UseLane(0) // in order: out's last writer is the last dispatch
	for range 3 {
		require.NoError(t, cb.Add(out, x, x))
	}
	require.Len(t, cb.keep, 2, "out and x, kept once each")
	for _, b := range []*Buffer{x, out} {
		b.mu.Lock()
		require.Equal(t, 1, b.inflight, "one use per command buffer")
		b.mu.Unlock()
	}

	victim := rttest.Upload(t, d, make([]float32, 64))
	require.NoError(t, cb.Add(out, victim, x))
	base := d.Stats().LiveBuffers
	require.NoError(t, victim.Free())
	require.ErrorIs(t, cb.Add(out, victim, x), ErrFreed, "a held buffer freed since is refused")
	require.Equal(t, base, d.Stats().LiveBuffers, "its memory stays until the command buffer completes")

	require.NoError(t, cb.Wait())
	require.Equal(t, base-1, d.Stats().LiveBuffers, "and is released then")
	require.Empty(t, cb.keep)
	for _, b := range []*Buffer{x, out} {
		b.mu.Lock()
		require.Zero(t, b.inflight, "Wait gives every use back")
		b.mu.Unlock()
	}
	got, err := out.Floats()
	require.NoError(t, err)
	require.Equal(t, float32(0+63), got[63], "out = victim + x, the last dispatch made")
	require.NoError(t, cb.release())
}
