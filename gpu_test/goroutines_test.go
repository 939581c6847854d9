package gpu_test

import (
	"fmt"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// operands returns the a, b and c of the (a+b)*c guards for a seed, and
// the exact result.
func operands(seed, n int) (a, b, c, want []float32) {
	a = rttest.Ramp(n, func(i int) float32 { return float32(seed*1000 + i%97) })
	b = rttest.Ramp(n, func(i int) float32 { return float32(i%5) - 2.5 })
	c = rttest.Ramp(n, func(i int) float32 { return float32(seed + 1) })
	return a, b, c, addMul(a, b, c)
}

// TestGraphBuiltOnOneGoroutineEvaluatedOnAnother: arrays uploaded and a
// lazy graph built on one goroutine are evaluated on the test's goroutine.
func TestGraphBuiltOnOneGoroutineEvaluatedOnAnother(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	a, b, c, want := operands(1, guardN)
	built := make(chan *runtime.Array)
	errs := make(chan error, 1)
	go func() {
		x, err := runtime.FromSlice(d, a)
		if err == nil {
			var y, z *runtime.Array
			if y, err = runtime.FromSlice(d, b); err == nil {
				if z, err = runtime.FromSlice(d, c); err == nil {
					built <- runtime.Mul(runtime.Add(x, y), z)
					return
				}
			}
		}
		errs <- err
	}()
	var r *runtime.Array
	select {
	case r = <-built:
	case err := <-errs:
		require.NoError(t, err)
	}
	require.NoError(t, runtime.Eval(r))
	got, err := r.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want))
}

// TestEvalInsideFreshGoroutine: every evaluation runs in a goroutine of its
// own that locks its OS thread and ends locked, so the Go scheduler retires
// that thread and the next evaluation runs on a thread the device has
// possibly never used. On CUDA this is the case where a driver call made
// without first making the context current fails with
// CUDA_ERROR_INVALID_CONTEXT.
func TestEvalInsideFreshGoroutine(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	for g := range 16 {
		a, b, c, want := operands(g, guardN)
		result := make(chan error, 1)
		go func() {
			goruntime.LockOSThread() // never unlocked: the thread exits with the goroutine
			result <- func() error {
				x, err := runtime.FromSlice(d, a)
				if err != nil {
					return err
				}
				y, err := runtime.FromSlice(d, b)
				if err != nil {
					return err
				}
				z, err := runtime.FromSlice(d, c)
				if err != nil {
					return err
				}
				r := runtime.Mul(runtime.Add(x, y), z)
				if err := runtime.Eval(r); err != nil {
					return err
				}
				got, err := r.Data()
				if err != nil {
					return err
				}
				if m := rttest.Mismatches(got, want); m != 0 {
					return fmt.Errorf("%d of %d elements wrong", m, len(want))
				}
				return nil
			}()
		}()
		require.NoErrorf(t, <-result, "evaluation %d in a fresh goroutine", g)
	}
}

// TestEvaluatedArrayReadFromOtherGoroutines: an array evaluated on the
// test's goroutine is read by eight goroutines at once, each getting every
// element.
func TestEvaluatedArrayReadFromOtherGoroutines(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	a, b, c, want := operands(2, guardN)
	r := runtime.Mul(runtime.Add(rttest.Array(t, runtime.FromSlice, d, a), rttest.Array(t, runtime.FromSlice, d, b)), rttest.Array(t, runtime.FromSlice, d, c))
	require.NoError(t, runtime.Eval(r))
	got := make([][]float32, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], errs[i] = r.Data() })
	}
	wg.Wait()
	for i := range got {
		require.NoError(t, errs[i])
		require.Zerof(t, rttest.Mismatches(got[i], want), "reader %d", i)
	}
}

// TestGlobalRandomKeyAcrossGoroutines: eight goroutines build Uniform
// arrays from the global random state at once; each draws its own key, and
// together they draw exactly the first eight keys of the seed.
func TestGlobalRandomKeyAcrossGoroutines(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	const seed, n = 7, 256
	runtime.Seed(seed)
	arrays := make([]*runtime.Array, 8)
	var wg sync.WaitGroup
	for i := range arrays {
		wg.Go(func() { arrays[i] = runtime.Uniform(d, n) })
	}
	wg.Wait()
	require.NoError(t, runtime.Eval(arrays...))

	// Which goroutine drew which key depends on scheduling; which keys were
	// drawn does not.
	expected := map[float32]runtime.Key{}
	for c := range uint64(len(arrays)) {
		k := runtime.KeyFrom(seed, c)
		expected[runtime.UniformAt(k, 0)] = k
	}
	require.Len(t, expected, len(arrays), "the first elements of the seed's first keys must tell the keys apart")
	used := map[runtime.Key]bool{}
	for i, arr := range arrays {
		got, err := arr.Data()
		require.NoError(t, err)
		k, ok := expected[got[0]]
		require.Truef(t, ok, "array %d was not drawn from the first %d keys of seed %d", i, len(arrays), seed)
		require.Falsef(t, used[k], "array %d drew a key another array drew too", i)
		used[k] = true
		want := rttest.Ramp(n, func(j int) float32 { return runtime.UniformAt(k, uint32(j)) })
		require.Zerof(t, rttest.Mismatches(got, want), "array %d", i)
	}
}

// TestDefaultStreamIsTheSameFromEveryGoroutine: the default device and its
// default stream are one value, whichever goroutine asks, and evaluations
// from many goroutines leave the device with that one stream.
func TestDefaultStreamIsTheSameFromEveryGoroutine(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	def, err := runtime.DefaultDevice()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, def.Close()) })
	x := rttest.Array(t, runtime.FromSlice, d, []float32{1, 2, 3, 4})
	type seen struct {
		stream, defStream *runtime.Stream
		def               *runtime.Device
		err               error
	}
	got := make([]seen, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			s := &got[i]
			s.stream = d.DefaultStream()
			if s.def, s.err = runtime.DefaultDevice(); s.err != nil {
				return
			}
			s.defStream = s.def.DefaultStream()
			s.err = runtime.Eval(runtime.Add(x, x))
		})
	}
	wg.Wait()
	for i, s := range got {
		require.NoErrorf(t, s.err, "goroutine %d", i)
		require.Samef(t, d.DefaultStream(), s.stream, "goroutine %d got another stream of the device", i)
		require.Samef(t, def, s.def, "goroutine %d got another default device", i)
		require.Samef(t, def.DefaultStream(), s.defStream, "goroutine %d got another default stream", i)
	}
	require.Same(t, d, d.DefaultStream().Device())
	require.Equal(t, 1, d.Stats().Streams, "evaluations from every goroutine share the device's one stream")
}

// TestConcurrentEvaluationsOnSharedDefaultStream: eight goroutines each run
// twenty-five evaluations of their own (a+b)*c on the device's one default
// stream and check their own result every time (five each in -test.short
// mode, for runs under compute-sanitizer).
func TestConcurrentEvaluationsOnSharedDefaultStream(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	goroutines, evals := 8, 25
	if testing.Short() {
		evals = 5 // under compute-sanitizer, where every launch is slow
		t.Logf("short mode: %d goroutines x %d evaluations", goroutines, evals)
	}
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() { errs[g] = evaluateRepeatedly(d, g, evals) })
	}
	wg.Wait()
	for g, err := range errs {
		require.NoErrorf(t, err, "goroutine %d", g)
	}
	require.Equal(t, 1, d.Stats().Streams)
	require.Zero(t, d.Stats().Outstanding, "every encoder is back in the pool")
}

// evaluateRepeatedly runs evals evaluations of goroutine g's (a+b)*c and
// returns the first error or wrong result.
func evaluateRepeatedly(d *runtime.Device, g, evals int) error {
	a, b, c, want := operands(g, guardN)
	for e := range evals {
		var in [3]*runtime.Array
		for i, data := range [][]float32{a, b, c} {
			var err error
			if in[i], err = runtime.FromSlice(d, data); err != nil {
				return fmt.Errorf("evaluation %d: %w", e, err)
			}
		}
		r := runtime.Mul(runtime.Add(in[0], in[1]), in[2])
		got, err := r.Data()
		if err != nil {
			return fmt.Errorf("evaluation %d: %w", e, err)
		}
		if m := rttest.Mismatches(got, want); m != 0 {
			return fmt.Errorf("evaluation %d: %d of %d elements wrong", e, m, len(want))
		}
		for _, arr := range append(in[:], r) {
			if err := arr.Free(); err != nil {
				return fmt.Errorf("evaluation %d: %w", e, err)
			}
		}
	}
	return nil
}

// maxLaneSets is the bound on a device's lane sets that docs/runtime.md
// states (a pool of at most 4 lane sets per device): lanes are O(devices),
// whatever the number of goroutines.
const maxLaneSets = 4

// TestStreamsStayPerDeviceAfterThousandGoroutines: a thousand short-lived
// goroutines each touch the runtime (ask for the default stream, build and
// evaluate an array, read it); afterwards the device still has one stream
// and no more lanes than its pool's bound. In -test.short mode (for runs
// under compute-sanitizer) a hundred goroutines do.
func TestStreamsStayPerDeviceAfterThousandGoroutines(t *testing.T) {
	touchFromManyGoroutines(t, rttest.Open(t, runtime.Open))
}

// touchFromManyGoroutines runs a thousand short-lived goroutines (a hundred
// in -test.short mode) that each evaluate and read an array on every one of
// devs, then checks that each device still has one stream, lanes and
// encoders within its pool's bound and every encoder back in the pool: the
// resources are O(devices), not O(goroutines).
func touchFromManyGoroutines(t *testing.T, devs ...*runtime.Device) {
	t.Helper()
	xs := make([]*runtime.Array, len(devs))
	wants := make([][]float32, len(devs))
	for i, d := range devs {
		base := float32(10 * (i + 1))
		xs[i] = rttest.Array(t, runtime.FromSlice, d, []float32{base + 1, base + 2, base + 3, base + 4})
		wants[i] = []float32{2 * (base + 1), 2 * (base + 2), 2 * (base + 3), 2 * (base + 4)}
	}
	cb, err := devs[0].NewCommandBuffer()
	require.NoError(t, err)
	lanesPerSet := cb.Lanes()
	goroutines := 1000
	if testing.Short() {
		goroutines = 100 // under compute-sanitizer, where every launch is slow
		t.Logf("short mode: %d goroutines", goroutines)
	}
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for g := range errs {
		wg.Go(func() {
			for i, d := range devs {
				if d.DefaultStream() == nil {
					errs[g] = fmt.Errorf("%s: no default stream", d)
					return
				}
				r := runtime.Add(xs[i], xs[i])
				got, err := r.Data()
				switch {
				case err != nil:
					errs[g] = fmt.Errorf("%s: %w", d, err)
				case rttest.Mismatches(got, wants[i]) != 0:
					errs[g] = fmt.Errorf("%s: got %v, want %v", d, got, wants[i])
				default:
					errs[g] = r.Free()
				}
				if errs[g] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for g, err := range errs {
		require.NoErrorf(t, err, "goroutine %d", g)
	}
	for _, d := range devs {
		s := d.Stats()
		t.Logf("%s after %d goroutines: %d stream(s), %d lanes, %d encoders", d, goroutines, s.Streams, s.Lanes, s.Encoders)
		require.Equalf(t, 1, s.Streams, "%s: one stream per device, not one per goroutine", d)
		require.LessOrEqualf(t, s.Lanes, maxLaneSets*lanesPerSet, "%s: lanes are O(devices), not O(goroutines)", d)
		require.LessOrEqualf(t, s.Encoders, maxLaneSets, "%s: encoders are recycled, not created per goroutine", d)
		require.Zerof(t, s.Outstanding, "%s: every encoder is back in the pool", d)
	}
}
