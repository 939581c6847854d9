package runtime

import (
	"math"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// fuseN is the element count of the fusion tests: float4 body and tail
// alike for the unfused kernels, and several blocks for the fused one.
const fuseN = 4099

// fusionGraph builds, on d, the arrays of one evaluation: t = a+b,
// r = t*a, s = softcap(r, 7), u = s*t (an input and an intermediate each
// used twice), and returns every node and the inputs.
func fusionGraph(t *testing.T, d *Device) (nodes, inputs []*Array) {
	t.Helper()
	a := rttest.Array(t, FromSlice, d, rttest.Ramp(fuseN, func(i int) float32 { return float32(i)*0.037 - 50 }))
	b := rttest.Array(t, FromSlice, d, rttest.Ramp(fuseN, func(i int) float32 { return float32(i%17) + 0.125 }))
	tt := Add(a, b)
	r := Mul(tt, a)
	s := Softcap(r, 7)
	u := Mul(s, tt)
	return []*Array{tt, r, s, u}, []*Array{a, b}
}

// evalNodes evaluates the last node (and with it every other) and returns
// every node's data.
func evalNodes(t *testing.T, nodes []*Array) [][]float32 {
	t.Helper()
	require.NoError(t, Eval(nodes[len(nodes)-1]))
	var out [][]float32
	for _, a := range nodes {
		got, err := a.Data()
		require.NoError(t, err)
		out = append(out, got)
	}
	return out
}

// TestFusedEvalMatchesUnfused: an Eval of add, mul and softcap nodes runs
// as one fused kernel and gives every node, intermediates included, the
// same bits as the unfused kernels on the same backend (softcap within the
// tolerance between CUDA's tanhf and the host's tanh on CUDA, where the
// fused kernel inlines it into other code).
func TestFusedEvalMatchesUnfused(t *testing.T) {
	fused := rttest.Open(t, Open)
	plain := rttest.Open(t, Open, WithFusion(false))
	fn, _ := fusionGraph(t, fused)
	pn, _ := fusionGraph(t, plain)
	got, want := evalNodes(t, fn), evalNodes(t, pn)
	if fused.backend.canFuse() {
		require.EqualValues(t, 1, fused.fusedDispatches.Load(), "one fused kernel for the whole evaluation")
	}
	require.Zero(t, plain.fusedDispatches.Load(), "WithFusion(false) encodes node by node")
	for k := range want {
		if fused.Backend() == BackendCPU || k < 2 {
			require.Zerof(t, rttest.Mismatches(got[k], want[k]), "node %d differs from the unfused kernels", k)
			continue
		}
		for i := range want[k] {
			require.InDeltaf(t, want[k][i], got[k][i], SoftcapTolerance*30*math.Max(1, math.Abs(float64(want[k][i]))), "node %d element %d", k, i)
		}
	}
}

// TestFusionOnlyForElementwiseGroups: a sum in the evaluation, or operands
// of different sizes, keep the node-by-node encoding with its barriers.
func TestFusionOnlyForElementwiseGroups(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, rttest.Ramp(100, func(i int) float32 { return float32(i) }))
	y := rttest.Array(t, FromSlice, d, rttest.Ramp(7, func(i int) float32 { return float32(i) }))
	s := Sum(Add(x, x))
	require.NoError(t, Eval(s))
	v, err := s.Item()
	require.NoError(t, err)
	require.Equal(t, float32(9900), v)
	p, q := Add(x, x), Mul(y, y)
	require.NoError(t, Eval(p, q))
	require.Zero(t, d.fusedDispatches.Load(), "neither evaluation is one elementwise group of one size")
	got, err := q.Data()
	require.NoError(t, err)
	require.Equal(t, float32(36), got[6])
}

// TestFusedEvalReportsFreedInput: an input freed before the evaluation is
// the same error with fusion as without.
func TestFusedEvalReportsFreedInput(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, []float32{1, 2, 3})
	y := rttest.Array(t, FromSlice, d, []float32{1, 2, 3})
	r := Mul(Add(x, y), y)
	require.NoError(t, y.Free())
	require.ErrorIs(t, Eval(r), ErrFreed)
}

// TestFusedSourceRoundsEachOperation: the generated kernel names each
// operation's rounding (no contraction into a fused multiply-add) and
// writes every node's output.
func TestFusedSourceRoundsEachOperation(t *testing.T) {
	p := fusedProgram{inputs: 2, nops: 3}
	p.ops[0] = fusedOp{op: opAdd, a: 0, b: 1}
	p.ops[1] = fusedOp{op: opMul, a: 2, b: 1}
	p.ops[2] = fusedOp{op: opSoftcap, a: 3, scalar: 5}
	src := p.cudaSource()
	for _, want := range []string{"__fadd_rn(v0, v1)", "__fmul_rn(v2, v1)", "tanhf(v3 / c4)", "o0[i] = v2;", "o2[i] = v4;", "0x40a00000"} {
		require.Contains(t, src, want)
	}
	require.Equal(t, 3, strings.Count(src, "__restrict__ o"))
	require.Equal(t, "in2;v2=add(v0,v1);v3=mul(v2,v1);v4=softcap(v3,40a00000)", p.key())
}

// TestFusionEnvironment: GUARDLINT_RT_FUSION takes on and off, and
// anything else is a clear error.
func TestFusionEnvironment(t *testing.T) {
	t.Setenv(EnvFusion, "sometimes")
	_, err := Open(WithBackend(BackendCPU))
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, EnvFusion)
	t.Setenv(EnvFusion, "off")
	d := rttest.Open(t, Open, WithBackend(BackendCPU))
	require.False(t, d.cfg.fusion)
	t.Setenv(EnvFusion, "on")
	d = rttest.Open(t, Open, WithBackend(BackendCPU))
	require.True(t, d.cfg.fusion)
}

// TestGraphsEnvironment: GUARDLINT_RT_GRAPHS takes on and off, and
// anything else is a clear error.
func TestGraphsEnvironment(t *testing.T) {
	t.Setenv(EnvGraphs, "maybe")
	_, err := Open(WithBackend(BackendCPU))
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, EnvGraphs)
	t.Setenv(EnvGraphs, "off")
	d := rttest.Open(t, Open, WithBackend(BackendCPU))
	require.False(t, d.cfg.graphs)
	t.Setenv(EnvGraphs, "on")
	d = rttest.Open(t, Open, WithBackend(BackendCPU))
	require.True(t, d.cfg.graphs)
	d = rttest.Open(t, Open, WithBackend(BackendCPU), WithGraphs(false))
	require.False(t, d.cfg.graphs, "the option overrides the environment")
}
