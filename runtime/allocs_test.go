package runtime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// evalAllocs is what one round trip of (a+b)*c allocates on the heap: the
// two arrays Add and Mul return (the caller's). The outputs' Buffers and
// their leak nets are the spares the previous round trip's Free kept
// (spares.go), and the evaluation's own bookkeeping (the graph walk's
// groups and node lists, the command buffer's kept buffers and Wait's
// error) allocates nothing once an evaluation of the same shape has run.
const evalAllocs = 2

// TestEvalAllocatesOnlyItsResults counts the heap allocations of a
// repeated (a+b)*c round trip on a backend that does nothing, fused and
// unfused. A count, not a time: it does not depend on the machine's load.
func TestEvalAllocatesOnlyItsResults(t *testing.T) {
	for _, fused := range []bool{true, false} {
		d := openNull(t, WithFusion(fused))
		const n = 4096
		x, err := FromSlice(d, make([]float32, n))
		require.NoError(t, err)
		y, err := FromSlice(d, make([]float32, n))
		require.NoError(t, err)
		z, err := FromSlice(d, make([]float32, n))
		require.NoError(t, err)
		var failure error
		roundTrip := func() {
			tt := Add(x, y)
			r := Mul(tt, z)
			if err := Eval(r); err != nil && failure == nil {
				failure = err
			}
			_ = tt.Free()
			_ = r.Free()
		}
		roundTrip() // the first evaluation sizes the scratch
		got := testing.AllocsPerRun(200, roundTrip)
		require.NoError(t, failure)
		require.Equal(t, float64(evalAllocs), got, "heap allocations per round trip, fusion %v", fused)
	}
}
