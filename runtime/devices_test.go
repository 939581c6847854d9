package runtime

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// openPair opens devices 0 and 1 of the backend the environment selects,
// or skips where there is only one (a one-GPU CUDA machine; the CPU
// backend presents two unless GUARDLINT_RT_CPU_DEVICES says otherwise).
func openPair(t testing.TB, opts ...Option) (*Device, *Device) {
	t.Helper()
	n, err := DeviceCount()
	require.NoError(t, err)
	if n < 2 {
		t.Skipf("%d device(s): this test needs two (on a one-GPU machine, run it on the CPU backend)", n)
	}
	return rttest.Open(t, Open, append(opts, WithOrdinal(0))...), rttest.Open(t, Open, append(opts, WithOrdinal(1))...)
}

func TestCPUDeviceCount(t *testing.T) {
	t.Setenv(EnvCPUDevices, "")
	n, err := DeviceCount(WithBackend(BackendCPU))
	require.NoError(t, err)
	require.Equal(t, 2, n, "the CPU backend presents two devices by default")
	n, err = DeviceCount(WithBackend(BackendCPU), WithCPUDevices(3))
	require.NoError(t, err)
	require.Equal(t, 3, n)

	t.Setenv(EnvCPUDevices, "4")
	n, err = DeviceCount(WithBackend(BackendCPU))
	require.NoError(t, err)
	require.Equal(t, 4, n)
	n, err = DeviceCount(WithBackend(BackendCPU), WithCPUDevices(1))
	require.NoError(t, err)
	require.Equal(t, 1, n, "the option overrides the environment")
	d := rttest.Open(t, Open, WithBackend(BackendCPU), WithOrdinal(3))
	require.Equal(t, 3, d.Ordinal())

	for _, bad := range []string{"0", "-1", "two"} {
		t.Setenv(EnvCPUDevices, bad)
		_, err = DeviceCount(WithBackend(BackendCPU))
		require.ErrorIs(t, err, ErrInvalidArgument, bad)
		require.ErrorContains(t, err, EnvCPUDevices)
		_, err = Open(WithBackend(BackendCPU))
		require.ErrorIs(t, err, ErrInvalidArgument, bad)
	}
	t.Setenv(EnvCPUDevices, "")
	_, err = DeviceCount(WithBackend(BackendCPU), WithCPUDevices(0))
	require.ErrorIs(t, err, ErrInvalidArgument)

	// Without a driver, the automatic choice counts the CPU devices.
	if _, cerr := cudaDeviceCount(); cerr != nil {
		n, err = DeviceCount(WithCPUDevices(5))
		require.NoError(t, err)
		require.Equal(t, 5, n)
		_, err = DeviceCount(WithBackend(BackendCUDA))
		require.ErrorIs(t, err, ErrBackendUnavailable)
	}
}

func TestOrdinalOutOfRange(t *testing.T) {
	t.Setenv(EnvCPUDevices, "")
	for _, c := range []struct {
		opts    []Option
		ordinal int
		count   int
	}{
		{[]Option{WithBackend(BackendCPU)}, 2, 2},
		{[]Option{WithBackend(BackendCPU), WithCPUDevices(5)}, 7, 5},
	} {
		_, err := Open(append(c.opts, WithOrdinal(c.ordinal))...)
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.ErrorContains(t, err, fmt.Sprintf("ordinal %d", c.ordinal))
		require.ErrorContains(t, err, fmt.Sprintf("%d device(s)", c.count))
	}
	_, err := Open(WithBackend(BackendCPU), WithOrdinal(-1))
	require.ErrorIs(t, err, ErrInvalidArgument)

	n, err := DeviceCount(WithBackend(BackendCUDA))
	if err != nil {
		t.Logf("CUDA part skipped: %v", err)
		return
	}
	for _, b := range []Backend{BackendCUDA, BackendAuto} {
		_, err = Open(WithBackend(b), WithOrdinal(n))
		require.ErrorIs(t, err, ErrInvalidArgument, b)
		require.NotErrorIs(t, err, ErrBackendUnavailable, "the driver loaded; the ordinal is wrong")
		require.ErrorContains(t, err, fmt.Sprintf("ordinal %d", n))
		require.ErrorContains(t, err, fmt.Sprintf("%d device(s)", n))
	}
}

func TestStringNamesTheOrdinal(t *testing.T) {
	n, err := DeviceCount()
	require.NoError(t, err)
	for i := range n {
		d := rttest.Open(t, Open, WithOrdinal(i))
		require.Equal(t, i, d.Ordinal())
		require.Truef(t, strings.HasPrefix(d.String(), fmt.Sprintf("%s:%d ", d.Backend(), i)), "%q names backend and ordinal", d)
	}
	cpu := rttest.Open(t, Open, WithBackend(BackendCPU), WithCPUDevices(2), WithOrdinal(1))
	require.Equal(t, "cpu:1 (goroutine lanes)", cpu.String())
}

func TestCPUOrdinalsAreIndependentDevices(t *testing.T) {
	d0 := rttest.Open(t, Open, WithBackend(BackendCPU), WithCPUDevices(2), WithOrdinal(0))
	d1 := rttest.Open(t, Open, WithBackend(BackendCPU), WithCPUDevices(2), WithOrdinal(1), WithCPUMemoryLimit(1<<20))
	big := 1 << 19 // 2 MiB: beyond device 1's limit, not device 0's
	_, err := d1.NewBuffer(big)
	require.ErrorIs(t, err, ErrOutOfMemory)
	b, err := d0.NewBuffer(big)
	require.NoError(t, err)
	require.NoError(t, b.Free())
	x := rttest.Array(t, FromSlice, d0, []float32{1, 2})
	y := rttest.Array(t, FromSlice, d1, []float32{1, 2})
	require.ErrorIs(t, Add(x, y).Err(), ErrDevices)
}

func TestRegistryIsPerDevice(t *testing.T) {
	d0, d1 := openPair(t)
	for _, d := range []*Device{d0, d1} {
		require.Zero(t, d.encoders.size())
		require.Equal(t, 1, d.Stats().Streams, "the default stream counts before its first evaluation")
	}
	x := rttest.Array(t, FromSlice, d0, []float32{1, 2, 3})
	require.NoError(t, Eval(Add(x, x)))
	require.Equal(t, 1, d0.encoders.size())
	require.Zero(t, d1.encoders.size(), "an evaluation on device 0 registers nothing on device 1")
	require.Same(t, d0.DefaultStream(), onlyStream(d0))

	y := rttest.Array(t, FromSlice, d1, []float32{1, 2, 3})
	require.NoError(t, Eval(Add(x, x), Add(y, y)))
	for _, d := range []*Device{d0, d1} {
		require.Equal(t, 1, d.encoders.size())
		require.Same(t, d.DefaultStream(), onlyStream(d))
		require.Equal(t, 1, d.Stats().Streams)
	}

	// A second stream of device 0 counts there only.
	extra := &Stream{dev: d0}
	cb, err := d0.NewCommandBuffer()
	require.NoError(t, err)
	require.Same(t, cb, d0.encoders.register(extra, cb))
	require.Equal(t, 2, d0.Stats().Streams)
	require.Equal(t, 1, d1.Stats().Streams)
	require.Same(t, cb, d0.encoders.take(extra))
	require.Nil(t, d0.encoders.take(extra), "taken once")
	require.NoError(t, cb.release())

	evalMu.Lock()
	err = d0.closeLocked()
	evalMu.Unlock()
	require.NoError(t, err)
	require.Zero(t, d0.encoders.size(), "Close clears the device's registry")
	require.Equal(t, 1, d1.encoders.size(), "and no other device's")
}

// onlyStream returns the one registered stream of d.
func onlyStream(d *Device) *Stream {
	d.encoders.mu.RLock()
	defer d.encoders.mu.RUnlock()
	for s := range d.encoders.byStream {
		return s
	}
	return nil
}

// opLog is the order of the backend calls of several traced devices.
type opLog struct {
	mu  sync.Mutex
	ops []string
}

// add appends one entry.
func (l *opLog) add(op string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = append(l.ops, op)
}

// tracedBackend logs launches and completion waits, and fails every
// launch after the first failAfter when failAfter is not negative.
type tracedBackend struct {
	backend
	name      string
	log       *opLog
	failAfter int
	launches  int
}

// errInjected is the failure of a traced launch.
var errInjected = errors.New("injected launch failure")

// launch implements backend.
func (b *tracedBackend) launch(l lane, op *launch) error {
	b.log.add(b.name + " launch")
	b.launches++
	if b.failAfter >= 0 && b.launches > b.failAfter {
		return errInjected
	}
	return b.backend.launch(l, op)
}

// launchFused implements backend: a fused kernel is a launch like any
// other.
func (b *tracedBackend) launchFused(l lane, p *fusedProgram, bufs []mem, n int) error {
	b.log.add(b.name + " launch")
	b.launches++
	if b.failAfter >= 0 && b.launches > b.failAfter {
		return errInjected
	}
	return b.backend.launchFused(l, p, bufs, n)
}

// syncEvent implements backend.
func (b *tracedBackend) syncEvent(e event) error {
	b.log.add(b.name + " wait")
	return b.backend.syncEvent(e)
}

// trace puts a tracedBackend under d, before d has created any lane.
func trace(d *Device, name string, log *opLog) *tracedBackend {
	tb := &tracedBackend{backend: d.backend, name: name, log: log, failAfter: -1}
	d.backend = tb
	return tb
}

// twoDeviceGraph builds (a+b)*c on d for a seed and returns it, its inputs
// and the exact result.
func twoDeviceGraph(t *testing.T, d *Device, seed int) (r *Array, in []*Array, want []float32) {
	t.Helper()
	const n = 4096
	a := rttest.Ramp(n, func(i int) float32 { return float32(seed*1000 + i%97) })
	b := rttest.Ramp(n, func(i int) float32 { return float32(i%5) - 2.5 })
	c := rttest.Ramp(n, func(i int) float32 { return float32(seed + 1) })
	in = []*Array{rttest.Array(t, FromSlice, d, a), rttest.Array(t, FromSlice, d, b), rttest.Array(t, FromSlice, d, c)}
	want = rttest.Ramp(n, func(i int) float32 { s := a[i] + b[i]; return s * c[i] })
	return Mul(Add(in[0], in[1]), in[2]), in, want
}

// TestEvalCommitsEveryDeviceBeforeWaiting: one Eval over two devices
// launches the work of both before it waits for either, so the devices
// compute at once; evaluating them one after another would wait for
// device 0 before launching on device 1.
func TestEvalCommitsEveryDeviceBeforeWaiting(t *testing.T) {
	d0, d1 := openPair(t)
	var log opLog
	trace(d0, "d0", &log)
	trace(d1, "d1", &log)
	r0, _, want0 := twoDeviceGraph(t, d0, 1)
	r1, _, want1 := twoDeviceGraph(t, d1, 2)
	require.NoError(t, Eval(r0, r1))

	lastLaunch, firstWait := map[string]int{}, -1
	for i, op := range log.ops {
		dev, what, _ := strings.Cut(op, " ")
		switch {
		case what == "launch":
			lastLaunch[dev] = i
		case what == "wait" && firstWait < 0:
			firstWait = i
		}
	}
	require.Contains(t, lastLaunch, "d0")
	require.Contains(t, lastLaunch, "d1")
	require.Positive(t, firstWait)
	require.Lessf(t, lastLaunch["d0"], firstWait, "calls: %v", log.ops)
	require.Lessf(t, lastLaunch["d1"], firstWait, "device 1 is launched before Eval waits for device 0; calls: %v", log.ops)

	for _, c := range []struct {
		r    *Array
		want []float32
	}{{r0, want0}, {r1, want1}} {
		got, err := c.r.Data()
		require.NoError(t, err)
		require.Zero(t, rttest.Mismatches(got, c.want))
	}
}

// TestEvalErrorOnOneDeviceFreesOutputsOfBoth: when the work of one device
// fails, Eval reports it with the device named and frees the outputs it
// allocated on every device, leaving every array unevaluated; once the
// fault is gone the same arrays evaluate exactly.
//
// The devices do not fuse, so that the add and the mul are two launches
// and the failure comes after work was already launched.
func TestEvalErrorOnOneDeviceFreesOutputsOfBoth(t *testing.T) {
	d0, d1 := openPair(t, WithFusion(false))
	var log opLog
	t0 := trace(d0, "d0", &log)
	t1 := trace(d1, "d1", &log)
	r0, _, want0 := twoDeviceGraph(t, d0, 3)
	r1, _, want1 := twoDeviceGraph(t, d1, 4)
	base0, base1 := d0.Stats().LiveBuffers, d1.Stats().LiveBuffers

	t1.failAfter = 1 // device 1's add is launched, its mul fails
	err := Eval(r0, r1)
	require.ErrorIs(t, err, errInjected)
	require.ErrorContains(t, err, d1.String())
	require.NotContains(t, err.Error(), d0.String(), "device 0 did not fail")
	for _, c := range []struct {
		d    *Device
		base int
		r    *Array
	}{{d0, base0, r0}, {d1, base1, r1}} {
		require.Equalf(t, c.base, c.d.Stats().LiveBuffers, "%s: the outputs of the failed Eval are freed", c.d)
		require.Zerof(t, c.d.Stats().Outstanding, "%s: every encoder is back in the pool", c.d)
		require.False(t, c.r.done, "the array stays unevaluated")
		require.Nil(t, c.r.out)
		require.Len(t, c.r.inputs, 2, "and keeps its graph")
	}

	// Both devices failing: both errors, joined.
	t0.failAfter, t0.launches, t1.launches = 0, 0, 0
	err = Eval(r0, r1)
	require.ErrorContains(t, err, d0.String())
	require.ErrorContains(t, err, d1.String())
	require.Equal(t, base0, d0.Stats().LiveBuffers)
	require.Equal(t, base1, d1.Stats().LiveBuffers)

	// A freed input on device 1 fails before anything is encoded.
	t0.failAfter, t1.failAfter = -1, -1
	r2, in2, _ := twoDeviceGraph(t, d1, 5)
	require.NoError(t, in2[2].Free())
	base1 = d1.Stats().LiveBuffers
	require.ErrorIs(t, Eval(r0, r2), ErrFreed)
	require.False(t, r0.done)
	require.Equal(t, base0, d0.Stats().LiveBuffers)
	require.Equal(t, base1, d1.Stats().LiveBuffers)

	got, err := r1.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want1), "after the failures device 1 evaluates exactly")

	// A closed device 1 fails after device 0 was encoded and committed.
	r3, _, _ := twoDeviceGraph(t, d1, 6)
	require.NoError(t, d1.Close())
	err = Eval(r0, r3)
	require.ErrorIs(t, err, ErrDeviceClosed)
	require.ErrorContains(t, err, d1.String())
	require.False(t, r0.done)
	require.Equal(t, base0, d0.Stats().LiveBuffers)

	got, err = r0.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want0), "after the failures device 0 evaluates exactly")
}

func TestToMovesAcrossDevices(t *testing.T) {
	d0, d1 := openPair(t)
	r, in, want := twoDeviceGraph(t, d0, 7)
	m, err := r.To(d1)
	require.NoError(t, err)
	require.Same(t, d1, m.Device())
	require.Equal(t, r.Shape(), m.Shape())
	require.True(t, r.done, "To evaluates the source")
	for _, x := range append(in, r) {
		require.NoError(t, x.Free())
	}
	got, err := m.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want), "the moved array is a copy, independent of the source")
	two := rttest.Array(t, FromSlice, d1, rttest.Ramp(len(want), func(int) float32 { return 2 }))
	got, err = Mul(m, two).Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, rttest.Ramp(len(want), func(i int) float32 { return want[i] * 2 })), "the moved array computes on its new device")

	// Shapes survive, the scalar's too.
	mat := rttest.Array(t, FromSlice, d1, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	back, err := mat.To(d0)
	require.NoError(t, err)
	require.Equal(t, []int{2, 3}, back.Shape())
	s, err := Sum(mat).To(d0)
	require.NoError(t, err)
	require.Equal(t, []int{}, s.Shape())
	v, err := s.Item()
	require.NoError(t, err)
	require.Equal(t, float32(21), v)

	same, err := mat.To(d1)
	require.NoError(t, err)
	require.Same(t, mat, same, "an array already on the device is returned as it is")
}

func TestToErrors(t *testing.T) {
	d0, d1 := openPair(t)
	x := rttest.Array(t, FromSlice, d0, []float32{1, 2, 3, 4})
	var nilArray *Array
	_, err := nilArray.To(d1)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = x.To(nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Add(x, rttest.Array(t, FromSlice, d0, []float32{1})).To(d1)
	require.ErrorIs(t, err, ErrShape)

	freed := rttest.Array(t, FromSlice, d0, []float32{1, 2})
	require.NoError(t, freed.Free())
	for _, d := range []*Device{d0, d1} {
		_, err = freed.To(d)
		require.ErrorIsf(t, err, ErrFreed, "to %s", d)
	}

	closed, err := Open(WithOrdinal(1))
	require.NoError(t, err)
	y := rttest.Array(t, FromSlice, closed, []float32{1, 2})
	require.NoError(t, closed.Close())
	_, err = x.To(closed)
	require.ErrorIs(t, err, ErrDeviceClosed, "to a closed device")
	_, err = y.To(d0)
	require.ErrorIs(t, err, ErrDeviceClosed, "from a closed device")
	base := d0.Stats().LiveBuffers
	_, err = Add(y, y).To(d0)
	require.ErrorIs(t, err, ErrDeviceClosed)
	require.Equal(t, base, d0.Stats().LiveBuffers, "a failed move allocates nothing on the target")
}
