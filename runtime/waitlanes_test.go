package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// TestWaitSynchronisesTheLanes: Wait completes the work of every lane the
// command buffer dispatched on since its last barrier, and after a
// barrier the work of every lane through lane 0, which waited for the
// others there. On adversarial lanes work runs only when a host wait
// reaches it, so a lane Wait leaves out stays unrun and its output stale.
func TestWaitSynchronisesTheLanes(t *testing.T) {
	d := rttest.OpenAdversarial(t, Open)
	want := rttest.Ramp(guardN, func(i int) float32 { return float32(i + 1) })
	src := rttest.Upload(t, d, want)
	zero := rttest.Upload(t, d, make([]float32, guardN))
	for _, barrier := range []bool{false, true} {
		outs := []*Buffer{rttest.Upload(t, d, make([]float32, guardN)), rttest.Upload(t, d, make([]float32, guardN))}
		cb, err := d.NewCommandBuffer()
		require.NoError(t, err)
		for i, out := range outs {
			cb.UseLane(i)
			require.NoError(t, cb.Add(out, src, zero))
		}
		if barrier {
			require.NoError(t, cb.Barrier())
		}
		require.NoError(t, cb.Wait())
		for i, out := range outs {
			got, err := out.Floats()
			require.NoError(t, err)
			require.Zero(t, rttest.Mismatches(got, want), "barrier=%v: lane %d's work completed at Wait", barrier, i)
		}
		require.NoError(t, cb.release())
	}
}
