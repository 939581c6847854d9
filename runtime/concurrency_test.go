package runtime

import (
	"fmt"
	"sync"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

func TestGraphBuiltOnOneGoroutineEvaluatedOnAnother(t *testing.T) {
	d := rttest.Open(t, Open)
	a := rttest.Ramp(4096, func(i int) float32 { return float32(i) })
	arrays := make(chan *Array)
	go func() {
		x := rttest.Array(t, FromSlice, d, a)
		arrays <- Mul(Add(x, x), x)
	}()
	r := <-arrays
	done := make(chan error)
	go func() { done <- Eval(r) }() // evaluation inside a fresh goroutine
	require.NoError(t, <-done)
	var got []float32
	var err error
	var wg sync.WaitGroup
	wg.Go(func() { got, err = r.Data() }) // an evaluated array read elsewhere
	wg.Wait()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, rttest.Ramp(4096, func(i int) float32 { return (a[i] + a[i]) * a[i] })))
}

func TestReadingUnevaluatedArrayEvaluatesIt(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, []float32{1, 2, 3})
	r := Add(x, x)
	got, err := r.Data()
	require.NoError(t, err)
	require.Equal(t, []float32{2, 4, 6}, got)
}

func TestDefaultStreamIsSharedByAllGoroutines(t *testing.T) {
	d := rttest.Open(t, Open)
	streams := make([]*Stream, 16)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() { streams[i] = d.DefaultStream() })
	}
	wg.Wait()
	for _, s := range streams {
		require.Same(t, d.DefaultStream(), s)
	}
}

func TestConcurrentEvaluationsOnTheDefaultStream(t *testing.T) {
	d := rttest.Open(t, Open)
	const goroutines, evals, n = 8, 25, 4096
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			a := rttest.Ramp(n, func(i int) float32 { return float32(g*1000 + i%97) })
			b := rttest.Ramp(n, func(i int) float32 { return float32(g + 1) })
			want := rttest.Ramp(n, func(i int) float32 { s := a[i] + b[i]; return s * b[i] })
			for range evals {
				x, err := FromSlice(d, a)
				if err != nil {
					errs <- err
					return
				}
				y, err := FromSlice(d, b)
				if err != nil {
					errs <- err
					return
				}
				got, err := Mul(Add(x, y), y).Data()
				if err != nil {
					errs <- err
					return
				}
				if m := rttest.Mismatches(got, want); m != 0 {
					errs <- &mismatchError{goroutine: g, count: m}
					return
				}
				_ = x.Free()
				_ = y.Free()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

type mismatchError struct{ goroutine, count int }

func (e *mismatchError) Error() string {
	return fmt.Sprintf("goroutine %d: %d wrong elements", e.goroutine, e.count)
}

func TestGlobalRandomStateAcrossGoroutines(t *testing.T) {
	d := rttest.Open(t, Open)
	Seed(7)
	arrays := make([]*Array, 8)
	var wg sync.WaitGroup
	for i := range arrays {
		wg.Go(func() { arrays[i] = Uniform(d, 64) })
	}
	wg.Wait()
	require.NoError(t, Eval(arrays...))
	seen := map[Key]bool{}
	for _, a := range arrays {
		require.False(t, seen[a.key], "every Uniform draws its own key")
		seen[a.key] = true
		got, err := a.Data()
		require.NoError(t, err)
		require.Equal(t, UniformAt(a.key, 5), got[5])
	}
	for c := range uint64(8) {
		require.True(t, seen[KeyFrom(7, c)], "keys are the first eight of seed 7")
	}
}

func TestStreamsStayPerDeviceAcrossGoroutines(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4})
	before := d.encoders.size()
	var wg sync.WaitGroup
	for range 1000 {
		wg.Go(func() {
			_ = d.DefaultStream()
			r := Add(x, x)
			if err := Eval(r); err == nil {
				_ = r.Free()
			}
		})
	}
	wg.Wait()
	s := d.Stats()
	require.Equal(t, 1, s.Streams)
	require.LessOrEqual(t, s.Lanes, poolSets*d.cfg.lanes, "lanes are O(devices), not O(goroutines)")
	require.LessOrEqual(t, d.encoders.size(), before+1, "one registry entry per device stream")
}
