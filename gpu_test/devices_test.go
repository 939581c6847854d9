package gpu_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// openEveryDevice opens every device of the backend the runtime picks (or
// the environment forces), one per ordinal, and closes them when the test
// ends. Where there are fewer than two it skips the test, saying so: the
// CPU backend presents two devices unless GUARDLINT_RT_CPU_DEVICES says
// otherwise, and a one-GPU CUDA machine has one.
func openEveryDevice(t *testing.T) []*runtime.Device {
	t.Helper()
	return openEveryDeviceWith(t, rttest.Open[*runtime.Device, runtime.Option])
}

// openEveryDeviceWith is openEveryDevice opening each device with open:
// rttest.OpenAdversarial for the discriminating guards.
func openEveryDeviceWith(t *testing.T, open func(testing.TB, func(...runtime.Option) (*runtime.Device, error), ...runtime.Option) *runtime.Device) []*runtime.Device {
	t.Helper()
	n, err := runtime.DeviceCount()
	require.NoError(t, err)
	if n < 2 {
		t.Skipf("%d device(s): this guard needs at least two (a one-GPU CUDA machine, or %s=1)", n, runtime.EnvCPUDevices)
	}
	devs := make([]*runtime.Device, n)
	for i := range devs {
		devs[i] = open(t, runtime.Open, runtime.WithOrdinal(i))
		require.Equal(t, i, devs[i].Ordinal())
	}
	return devs
}

// TestEvalSpreadOverEveryDevice: one Eval computes (a+b)*c on every device
// at once, each device with operands of its own. Every result must be
// computed by that Eval: the inputs are freed before the results are read,
// so a device whose part Eval skipped fails the read instead of being
// evaluated by it. Every result is exact, and each device is left with its
// one stream and every encoder back in its pool.
func TestEvalSpreadOverEveryDevice(t *testing.T) {
	devs := openEveryDevice(t)
	results := make([]*runtime.Array, len(devs))
	inputs := make([][]*runtime.Array, len(devs))
	wants := make([][]float32, len(devs))
	for i, d := range devs {
		a, b, c, want := operands(10+i, guardN)
		inputs[i] = []*runtime.Array{rttest.Array(t, runtime.FromSlice, d, a), rttest.Array(t, runtime.FromSlice, d, b), rttest.Array(t, runtime.FromSlice, d, c)}
		results[i] = runtime.Mul(runtime.Add(inputs[i][0], inputs[i][1]), inputs[i][2])
		wants[i] = want
	}
	require.NoError(t, runtime.Eval(results...))
	for _, in := range inputs {
		for _, x := range in {
			require.NoError(t, x.Free())
		}
	}
	for i, d := range devs {
		require.Same(t, d, results[i].Device())
		got, err := results[i].Data()
		require.NoErrorf(t, err, "%s: Eval must have computed the result", d)
		require.Zerof(t, rttest.Mismatches(got, wants[i]), "%s: elements wrong", d)
		s := d.Stats()
		require.Equalf(t, 1, s.Streams, "%s", d)
		require.Zerof(t, s.Outstanding, "%s: every encoder is back in the pool", d)
	}
}

// TestConcurrentEvaluationsOnEveryDevice: on every device four goroutines
// run repeated evaluations of their own (a+b)*c, and two more goroutines
// run repeated evaluations that span every device in one Eval; each
// checks its own result every time.
func TestConcurrentEvaluationsOnEveryDevice(t *testing.T) {
	devs := openEveryDevice(t)
	perDevice, spanning, evals := 4, 2, 25
	if testing.Short() {
		evals = 5 // under compute-sanitizer, where every launch is slow
		t.Logf("short mode: %d evaluations per goroutine", evals)
	}
	errs := make([]error, perDevice*len(devs)+spanning)
	var wg sync.WaitGroup
	for i, d := range devs {
		for g := range perDevice {
			k := i*perDevice + g
			wg.Go(func() { errs[k] = evaluateRepeatedly(d, k, evals) })
		}
	}
	for g := range spanning {
		k := perDevice*len(devs) + g
		wg.Go(func() { errs[k] = evaluateAcrossRepeatedly(devs, 100*(g+1), evals) })
	}
	wg.Wait()
	for k, err := range errs {
		require.NoErrorf(t, err, "goroutine %d", k)
	}
	for _, d := range devs {
		s := d.Stats()
		require.Equalf(t, 1, s.Streams, "%s: one stream per device, whatever the goroutines", d)
		require.Zerof(t, s.Outstanding, "%s: every encoder is back in the pool", d)
	}
}

// evaluateAcrossRepeatedly runs evals evaluations of (a+b)*c on every
// device in one Eval each, with operands of its own per device, and
// returns the first error or wrong result.
func evaluateAcrossRepeatedly(devs []*runtime.Device, seed, evals int) error {
	for e := range evals {
		var all []*runtime.Array
		results := make([]*runtime.Array, len(devs))
		wants := make([][]float32, len(devs))
		for i, d := range devs {
			a, b, c, want := operands(seed+i, guardN)
			var in [3]*runtime.Array
			for j, data := range [][]float32{a, b, c} {
				var err error
				if in[j], err = runtime.FromSlice(d, data); err != nil {
					return fmt.Errorf("evaluation %d on %s: %w", e, d, err)
				}
			}
			results[i] = runtime.Mul(runtime.Add(in[0], in[1]), in[2])
			wants[i] = want
			all = append(all, in[:]...)
		}
		if err := runtime.Eval(results...); err != nil {
			return fmt.Errorf("evaluation %d: %w", e, err)
		}
		for i, r := range results {
			got, err := r.Data()
			if err != nil {
				return fmt.Errorf("evaluation %d on %s: %w", e, devs[i], err)
			}
			if m := rttest.Mismatches(got, wants[i]); m != 0 {
				return fmt.Errorf("evaluation %d on %s: %d of %d elements wrong", e, devs[i], m, len(got))
			}
		}
		for _, arr := range append(all, results...) {
			if err := arr.Free(); err != nil {
				return fmt.Errorf("evaluation %d: %w", e, err)
			}
		}
	}
	return nil
}

// TestStreamsStayPerDeviceAfterThousandGoroutinesOnEveryDevice: a thousand
// short-lived goroutines each evaluate and read an array on every device;
// afterwards each device still has one stream, so the streams summed over
// the devices are one per device, and lanes and encoders stay within each
// pool's bound. In -test.short mode (for runs under compute-sanitizer) a
// hundred goroutines do.
func TestStreamsStayPerDeviceAfterThousandGoroutinesOnEveryDevice(t *testing.T) {
	devs := openEveryDevice(t)
	touchFromManyGoroutines(t, devs...)
	total := 0
	for _, d := range devs {
		total += d.Stats().Streams
	}
	require.Equal(t, len(devs)*1, total, "streams summed over the devices: one per device")
}

// TestArrayEvaluatedOnOneDeviceUsedOnAnother: for every ordered pair of
// devices, (a+b)*c is evaluated on the first; another goroutine reads it
// and carries it to the second twice, through Data and FromSlice and
// through To, and evaluates (r+b)*c there with operands of the second
// device. Every number is exact, the moved arrays live on the second
// device, and the source still reads exactly afterwards.
func TestArrayEvaluatedOnOneDeviceUsedOnAnother(t *testing.T) {
	devs := openEveryDevice(t)
	for _, src := range devs {
		for _, dst := range devs {
			if src == dst {
				continue
			}
			a, b, c, want := operands(20+src.Ordinal(), guardN)
			r := runtime.Mul(runtime.Add(rttest.Array(t, runtime.FromSlice, src, a), rttest.Array(t, runtime.FromSlice, src, b)), rttest.Array(t, runtime.FromSlice, src, c))
			require.NoError(t, runtime.Eval(r))
			b2, c2 := rttest.Array(t, runtime.FromSlice, dst, b), rttest.Array(t, runtime.FromSlice, dst, c)
			want2 := addMul(want, b, c)

			type carried struct {
				how string
				arr *runtime.Array
				got []float32
			}
			results := make(chan carried, 2)
			errs := make(chan error, 1)
			go func() {
				errs <- func() error {
					data, err := r.Data()
					if err != nil {
						return fmt.Errorf("read on %s: %w", src, err)
					}
					if m := rttest.Mismatches(data, want); m != 0 {
						return fmt.Errorf("read on %s: %d of %d elements wrong", src, m, len(want))
					}
					viaSlice, err := runtime.FromSlice(dst, data)
					if err != nil {
						return err
					}
					viaTo, err := r.To(dst)
					if err != nil {
						return err
					}
					for _, k := range []carried{{how: "Data+FromSlice", arr: viaSlice}, {how: "To", arr: viaTo}} {
						if k.got, err = runtime.Mul(runtime.Add(k.arr, b2), c2).Data(); err != nil {
							return fmt.Errorf("%s: evaluate on %s: %w", k.how, dst, err)
						}
						results <- k
					}
					return nil
				}()
			}()
			require.NoErrorf(t, <-errs, "%s to %s", src, dst)
			close(results)
			n := 0
			for k := range results {
				n++
				require.Samef(t, dst, k.arr.Device(), "%s: the carried array lives on %s", k.how, dst)
				require.Zerof(t, rttest.Mismatches(k.got, want2), "%s from %s to %s: elements wrong", k.how, src, dst)
			}
			require.Equal(t, 2, n, "both ways of carrying the array were evaluated")
			got, err := r.Data()
			require.NoError(t, err)
			require.Zerof(t, rttest.Mismatches(got, want), "%s: the source is unchanged", src)
		}
	}
}

// TestBarrierDiscriminatesOnEveryDevice: TestBarrierDiscriminates on each
// device, so that a device other than 0 is proven to order a reader after
// its producer, and proven to fail without the barrier.
func TestBarrierDiscriminatesOnEveryDevice(t *testing.T) {
	for _, d := range openEveryDeviceWith(t, rttest.OpenAdversarial[*runtime.Device, runtime.Option]) {
		t.Run(fmt.Sprintf("ordinal-%d", d.Ordinal()), func(t *testing.T) { barrierDiscriminates(t, d) })
	}
}

// TestRetainDiscriminatesOnEveryDevice: TestRetainDiscriminates on each
// device.
func TestRetainDiscriminatesOnEveryDevice(t *testing.T) {
	for _, d := range openEveryDeviceWith(t, rttest.OpenAdversarial[*runtime.Device, runtime.Option]) {
		t.Run(fmt.Sprintf("ordinal-%d", d.Ordinal()), func(t *testing.T) { retainDiscriminates(t, d) })
	}
}

// TestEvalBarrierDiscriminatesOnEveryDevice: TestEvalBarrierDiscriminates
// on each device.
func TestEvalBarrierDiscriminatesOnEveryDevice(t *testing.T) {
	for _, d := range openEveryDeviceWith(t, rttest.OpenAdversarial[*runtime.Device, runtime.Option]) {
		t.Run(fmt.Sprintf("ordinal-%d", d.Ordinal()), func(t *testing.T) { evalBarrierDiscriminates(t, d) })
	}
}
