package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// TestFusionBufferLimit: a group is one fused kernel while its nodes and
// the distinct arrays it reads are at most maxFusedBuffers together (the
// launch passes them and the element count as 8 parameters), and is
// encoded node by node with one buffer more; both give the same values.
func TestFusionBufferLimit(t *testing.T) {
	d := rttest.Open(t, Open)
	in := make([]*Array, 4)
	for k := range in {
		in[k] = rttest.Array(t, FromSlice, d, rttest.Ramp(64, func(i int) float32 { return float32(i + k) }))
	}
	a, b, c, e := in[0], in[1], in[2], in[3]
	// Three nodes and four inputs: seven buffers, one kernel.
	t1 := Add(a, b)
	t2 := Mul(t1, c)
	t3 := Add(t2, e)
	require.NoError(t, Eval(t3))
	require.EqualValues(t, 1, d.fusedDispatches.Load(), "7 buffers fit one launch")
	got, err := t3.Data()
	require.NoError(t, err)
	require.Equal(t, float32((5+6)*7+8), got[5])

	// Four nodes and the same four inputs, a again among them: eight.
	u1 := Add(a, b)
	u2 := Mul(u1, c)
	u3 := Add(u2, e)
	u4 := Mul(u3, a)
	require.NoError(t, Eval(u4))
	require.EqualValues(t, 1, d.fusedDispatches.Load(), "8 buffers do not fit one launch: no second fused kernel")
	got, err = u4.Data()
	require.NoError(t, err)
	require.Equal(t, float32(((5+6)*7+8)*5), got[5])
}
