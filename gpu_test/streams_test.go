package gpu_test

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// The guards in this file open, on purpose, the windows that the locks of
// the stream registry and of evaluation close: goroutines registering
// streams while others look streams up, evaluations on several streams
// at once, a stream closed under an evaluation on it. With the locks in
// place every result is exact; with one reverted the race detector
// reports the unordered accesses on the CPU backend, and on a GPU the Go
// runtime's map checks ("concurrent map writes"), a panic or a wrong
// result show it.

// streamN is the element count of the evaluations of
// TestStreamsMadeWhileOthersEvaluate: its windows are in the registry and
// the evaluation lock, not in the kernels, so small arrays let many
// evaluations run.
const streamN = 256

// streamsPerMaker is how many streams each maker goroutine makes in
// TestStreamsMadeWhileOthersEvaluate: enough that the registry's map grows
// several times while lookups read it, and, without the race detector
// (which sees every unordered pair whenever it happens), that
// registrations and lookups meet in time, which is all the Go runtime's
// map checks see.
func streamsPerMaker() int {
	if testing.Short() {
		return 8 // under compute-sanitizer, where every launch is slow
	}
	return 64
}

// evalEvery is how sparsely the makers of TestStreamsMadeWhileOthersEvaluate
// evaluate on the streams they made: every fourth, enough for lookups of
// the new streams under the evaluation lock and for evaluations on them
// beside those on the default stream.
const evalEvery = 4

// evalOn evaluates goroutine g's (a+b)*c with eval (runtime.Eval or a
// stream's Eval), checks every element and frees the arrays.
func evalOn(d *runtime.Device, eval func(...*runtime.Array) error, g int) error {
	a, b, c, want := operands(g, streamN)
	var in [3]*runtime.Array
	for i, data := range [][]float32{a, b, c} {
		var err error
		if in[i], err = runtime.FromSlice(d, data); err != nil {
			return err
		}
	}
	r := runtime.Mul(runtime.Add(in[0], in[1]), in[2])
	if err := eval(r); err != nil {
		return err
	}
	got, err := r.Data()
	if err != nil {
		return err
	}
	if m := rttest.Mismatches(got, want); m != 0 {
		return fmt.Errorf("%d of %d elements wrong", m, len(want))
	}
	for _, arr := range append(in[:], r) {
		if err := arr.Free(); err != nil {
			return err
		}
	}
	return nil
}

// TestStreamsMadeWhileOthersEvaluate: eight goroutines (or one per
// processor, where there are more) each make a burst of streams
// (NewStream registers them in the device's registry without the
// evaluation lock) and then evaluate on every fourth of them, while two
// others (one per four processors, where there are more) read the
// device's Stats (registry lookups) without pause and two more evaluate
// on the default stream. Every result is exact; once
// every stream is made, the device counts each of them exactly once
// besides its default stream; then the makers close their streams, still
// concurrently with the lookups, and the device is left with its default
// stream alone.
//
// The device does not fuse: a fused (a+b)*c is one short kernel, and the
// evaluations' windows, in which lookups and registrations meet, shrank
// with it. On the H200 the registry lookup's another-lock revert was caught
// in 3 of 6 runs with fusion and in 6 of 6 without.
func TestStreamsMadeWhileOthersEvaluate(t *testing.T) {
	d := rttest.Open(t, runtime.Open, runtime.WithFusion(false))
	// As many makers as the machine runs goroutines at once, and at least
	// eight, so that registrations meet on a machine of many cores.
	makers, readers, evaluators := max(8, goruntime.GOMAXPROCS(0)), max(2, goruntime.GOMAXPROCS(0)/4), 2
	perMaker := streamsPerMaker()
	errs := make([]error, makers+readers+evaluators)
	var making, makersDone, othersDone sync.WaitGroup
	closeNow, stop := make(chan struct{}), make(chan struct{})
	for g := range makers {
		making.Add(1)
		makersDone.Go(func() {
			var made []*runtime.Stream
			errs[g] = func() error {
				defer making.Done()
				for k := range perMaker {
					s, err := d.NewStream()
					if err != nil {
						return fmt.Errorf("stream %d: %w", k, err)
					}
					made = append(made, s)
				}
				for k := 0; k < len(made); k += evalEvery {
					if err := evalOn(d, made[k].Eval, g*perMaker+k); err != nil {
						return fmt.Errorf("evaluation on stream %d: %w", k, err)
					}
				}
				return nil
			}()
			<-closeNow
			for k, s := range made {
				if err := s.Close(); err != nil && errs[g] == nil {
					errs[g] = fmt.Errorf("close stream %d: %w", k, err)
				}
			}
		})
	}
	// until runs step until stop is closed or step fails.
	until := func(i int, step func(e int) error) {
		othersDone.Go(func() {
			for e := 0; ; e++ {
				select {
				case <-stop:
					return
				default:
				}
				if errs[i] = step(e); errs[i] != nil {
					return
				}
			}
		})
	}
	for r := range readers {
		until(makers+r, func(int) error {
			if n := d.Stats().Streams; n < 1 || n > 1+makers*perMaker {
				return fmt.Errorf("%d streams, with at most %d made", n, makers*perMaker)
			}
			return nil
		})
	}
	for v := range evaluators {
		until(makers+readers+v, func(e int) error {
			if err := evalOn(d, runtime.Eval, 1000+100*v+e%100); err != nil {
				return fmt.Errorf("evaluation %d on the default stream: %w", e, err)
			}
			return nil
		})
	}
	making.Wait()
	streams := d.Stats().Streams
	close(closeNow)
	makersDone.Wait()
	close(stop)
	othersDone.Wait()
	for g, err := range errs {
		require.NoErrorf(t, err, "goroutine %d", g)
	}
	t.Logf("%s: %d streams made by %d goroutines while %d read Stats and %d evaluated on the default stream", d, makers*perMaker, makers, readers, evaluators)
	require.Equal(t, 1+makers*perMaker, streams, "every stream made counts once, besides the default stream")
	st := d.Stats()
	require.Equal(t, 1, st.Streams, "closed streams are forgotten")
	require.Zero(t, st.Outstanding, "every encoder is back in the pool")
}

// closeN is the element count of the evaluations that a stream's Close
// meets: long enough that most of an evaluation is spent waiting for its
// kernels, which is where a Close that does not wait for the evaluation
// finds it.
func closeN(d *runtime.Device) int {
	switch {
	case testing.Short():
		return 1 << 12 // under compute-sanitizer, where every launch is slow
	case d.Backend() == runtime.BackendCUDA:
		return 1 << 25
	}
	return 1 << 16
}

// closeRounds is how many times TestStreamClosedWhileAnotherGoroutineEvaluatesOnIt
// closes a stream under an evaluation: each round is one chance for a
// Close that does not wait to meet the evaluation in progress.
const closeRounds = 4

// evalUntilClosed uploads goroutine g's a, b and c once and evaluates
// (a+b)*c on them on s over and over, checking every result, until an
// evaluation fails with ErrStreamClosed (another goroutine closes s). It
// closes first after the first exact result, right before the next
// evaluation, so that a Close called on that signal arrives while the
// evaluation is waiting for its kernels; it closes first too when it
// returns. Any other error, or a wrong element, is returned.
func evalUntilClosed(d *runtime.Device, s *runtime.Stream, g int, first chan<- struct{}) error {
	var once sync.Once
	signal := func() { once.Do(func() { close(first) }) }
	defer signal()
	a, b, c, want := operands(g, closeN(d))
	var in [3]*runtime.Array
	for i, data := range [][]float32{a, b, c} {
		var err error
		if in[i], err = runtime.FromSlice(d, data); err != nil {
			return err
		}
	}
	defer func() {
		for _, x := range in {
			_ = x.Free()
		}
	}()
	for e := 0; ; e++ {
		sum := runtime.Add(in[0], in[1])
		r := runtime.Mul(sum, in[2])
		if e == 1 {
			signal()
		}
		err := s.Eval(r)
		if errors.Is(err, runtime.ErrStreamClosed) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("evaluation %d: %w", e, err)
		}
		got, err := r.Data()
		if err != nil {
			return fmt.Errorf("evaluation %d: read: %w", e, err)
		}
		if m := rttest.Mismatches(got, want); m != 0 {
			return fmt.Errorf("evaluation %d: %d of %d elements wrong", e, m, len(want))
		}
		for _, x := range []*runtime.Array{sum, r} {
			if err := x.Free(); err != nil {
				return fmt.Errorf("evaluation %d: free: %w", e, err)
			}
		}
	}
}

// TestStreamClosedWhileAnotherGoroutineEvaluatesOnIt: a goroutine
// evaluates on a new stream over and over; after its first exact result
// the test's goroutine closes the stream as the next evaluation starts;
// four rounds. Close waits for an evaluation in progress on the stream:
// every evaluation is exact or fails with ErrStreamClosed, and the
// evaluator stops on that error. A Close that does not wait releases the
// command buffer under the evaluation (a panic or a data race on the CPU
// backend in every round tried).
func TestStreamClosedWhileAnotherGoroutineEvaluatesOnIt(t *testing.T) {
	d := rttest.Open(t, runtime.Open)
	for round := range closeRounds {
		s, err := d.NewStream()
		require.NoError(t, err)
		first := make(chan struct{})
		result := make(chan error, 1)
		go func() { result <- evalUntilClosed(d, s, 100+round, first) }()
		<-first
		require.NoErrorf(t, s.Close(), "round %d", round)
		require.NoErrorf(t, <-result, "round %d", round)
	}
	st := d.Stats()
	require.Equal(t, 1, st.Streams, "the closed streams are forgotten")
	require.Zero(t, st.Outstanding, "every encoder is back in the pool")
}
