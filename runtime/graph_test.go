//go:build linux

package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// replayingDevice opens a device with the given graph setting and returns
// its CUDA backend, or skips where fused kernels cannot run on CUDA.
func replayingDevice(t *testing.T, graphs bool) (*Device, *cudaBackend) {
	t.Helper()
	d := rttest.Open(t, Open, WithGraphs(graphs))
	cu, ok := d.backend.(*cudaBackend)
	if !ok || !cu.canFuse() {
		t.Skip("fused kernels replayed as graphs exist on the CUDA backend with NVRTC only")
	}
	if graphs && !cu.drv.GraphsSupported() {
		t.Skip("the driver has no CUDA 12 graph entry points")
	}
	return d, cu
}

// TestFusedGraphReplaysOnNewBuffers: evaluations of one fused program over
// new arrays, each keeping its result, replay the program's graphs with the
// new buffers: every result is its own inputs', and an earlier result is not
// overwritten by a later replay.
func TestFusedGraphReplaysOnNewBuffers(t *testing.T) {
	d, cu := replayingDevice(t, true)
	const n, rounds = 4099, 6
	var results []*Array
	want := make([][]float32, rounds)
	for k := range rounds {
		ramp := func(scale float32) []float32 {
			return rttest.Ramp(n, func(i int) float32 { return float32(i%97)*scale + float32(k) })
		}
		a, b, c := ramp(1), ramp(0.5), ramp(0.25)
		r := Mul(Add(rttest.Array(t, FromSlice, d, a), rttest.Array(t, FromSlice, d, b)), rttest.Array(t, FromSlice, d, c))
		require.NoError(t, Eval(r))
		want[k] = make([]float32, n)
		for i := range want[k] {
			want[k][i] = (a[i] + b[i]) * c[i]
		}
		got, err := r.Data()
		require.NoError(t, err)
		require.Zerof(t, rttest.Mismatches(got, want[k]), "evaluation %d", k)
		results = append(results, r)
	}
	for k, r := range results {
		got, err := r.Data()
		require.NoError(t, err)
		require.Zerof(t, rttest.Mismatches(got, want[k]), "evaluation %d's result after the later replays", k)
	}
	require.EqualValues(t, rounds, d.fusedDispatches.Load(), "each evaluation is one fused kernel")
	require.EqualValues(t, rounds, cu.graphs.replays.Load(), "each fused kernel is a graph replay")
}

// TestGraphsOffLaunchesDirectly: WithGraphs(false) launches every fused
// kernel with cuLaunchKernel, with the same results.
func TestGraphsOffLaunchesDirectly(t *testing.T) {
	d, cu := replayingDevice(t, false)
	nodes, _ := fusionGraph(t, d)
	evalNodes(t, nodes)
	require.EqualValues(t, 1, d.fusedDispatches.Load())
	require.Zero(t, cu.graphs.replays.Load(), "no graph replayed with graphs off")
}

// TestUnfusedEvaluationReplaysEveryKernel: node by node, with barriers
// between the levels, every kernel is a graph replay and the results are
// those of the direct launches.
func TestUnfusedEvaluationReplaysEveryKernel(t *testing.T) {
	replayingDevice(t, true) // skips where there is nothing to replay
	plain := rttest.Open(t, Open, WithGraphs(false), WithFusion(false))
	unfused := rttest.Open(t, Open, WithGraphs(true), WithFusion(false))
	ucu := unfused.backend.(*cudaBackend)
	un, _ := fusionGraph(t, unfused)
	pn, _ := fusionGraph(t, plain)
	got, want := evalNodes(t, un), evalNodes(t, pn)
	for k := range want {
		require.Zerof(t, rttest.Mismatches(got[k], want[k]), "node %d", k)
	}
	require.EqualValues(t, len(un), ucu.graphs.replays.Load(), "one replay per node")
	require.Zero(t, plain.backend.(*cudaBackend).graphs.replays.Load())
}
