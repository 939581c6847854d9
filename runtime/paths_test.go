package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// TestKernelPathsGiveIdenticalResults: the embedded PTX and the NVRTC
// compilation of the same sources compute the same bits.
func TestKernelPathsGiveIdenticalResults(t *testing.T) {
	emb := rttest.Open(t, Open, WithKernels(KernelsEmbedded))
	if emb.Backend() != BackendCUDA {
		t.Skip("kernel paths exist on the CUDA backend only")
	}
	rtc := rttest.Open(t, Open, WithKernels(KernelsNVRTC))
	require.Equal(t, KernelsNVRTC, rtc.KernelSource())

	const n = 1<<20 + 5
	a := rttest.Ramp(n, func(i int) float32 { return float32(i%1009)*0.731 - 300 })
	b := rttest.Ramp(n, func(i int) float32 { return 1 / float32(i%13+1) })
	run := func(d *Device) [][]float32 {
		x, y := rttest.Array(t, FromSlice, d, a), rttest.Array(t, FromSlice, d, b)
		outs := []*Array{Add(x, y), Mul(x, y), Softcap(x, 50), Sum(x), Uniform(d, n)}
		require.NoError(t, Eval(outs...))
		var res [][]float32
		for _, o := range outs {
			got, err := o.Data()
			require.NoError(t, err)
			res = append(res, got)
		}
		return res
	}
	Seed(3)
	fromEmbedded := run(emb)
	Seed(3)
	fromNVRTC := run(rtc)
	for i := range fromEmbedded {
		require.Zerof(t, rttest.Mismatches(fromNVRTC[i], fromEmbedded[i]), "output %d differs between embedded PTX and NVRTC", i)
	}
}
