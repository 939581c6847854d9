//go:build linux

package runtime

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime/internal/cuda"
	"github.com/stretchr/testify/require"
)

// BenchmarkBareLaunch is BenchmarkDispatch's reference: the same kernel
// and arguments launched through the binding alone (its Launcher, as the
// runtime uses), on one thread with the context made current once.
func BenchmarkBareLaunch(b *testing.B) {
	d := cudaBench(b)
	cu := d.backend.(*cudaBackend)
	x := rttest.Upload(b, d, make([]float32, 1024))
	out := rttest.Upload(b, d, make([]float32, 1024))
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	require.NoError(b, cu.drv.SetCurrent(cu.ctx))
	s, err := cu.drv.StreamCreateNonBlocking()
	require.NoError(b, err)
	defer func() { require.NoError(b, cu.drv.StreamDestroy(s)) }()
	f := cu.funcs[kAdd]
	launcher := cu.drv.NewLauncher()
	defer launcher.Close()
	args := []uint64{uint64(out.m), uint64(x.m), uint64(x.m), 1024}
	grid := uint32((1024/4 + elementwiseBlock - 1) / elementwiseBlock)
	b.ResetTimer()
	for i := range b.N {
		if err := launcher.Launch(f, grid, elementwiseBlock, 0, s, args); err != nil {
			b.Fatal(err)
		}
		if i%dispatchBatch == dispatchBatch-1 {
			b.StopTimer()
			require.NoError(b, cu.drv.StreamSynchronize(s))
			b.StartTimer()
		}
	}
	b.StopTimer()
	require.NoError(b, cu.drv.StreamSynchronize(s))
}

// BenchmarkRoundTripParts breaks BenchmarkRoundTrip down: the same (a+b)*c
// on n = 4096 with the host waiting for it every iteration, built up one
// step at a time from bare driver calls (one thread, context current) to
// the command buffer and to Eval, so that the differences say where the
// round trip's time goes.
func BenchmarkRoundTripParts(b *testing.B) {
	d := cudaBench(b)
	cu := d.backend.(*cudaBackend)
	const n = 4096
	a := rttest.Upload(b, d, rttest.Ramp(n, func(i int) float32 { return float32(i) }))
	bb := rttest.Upload(b, d, rttest.Ramp(n, func(i int) float32 { return 1 }))
	c := rttest.Upload(b, d, rttest.Ramp(n, func(i int) float32 { return 2 }))
	t := rttest.Upload(b, d, make([]float32, n))
	r := rttest.Upload(b, d, make([]float32, n))
	grid := uint32((n/4 + elementwiseBlock - 1) / elementwiseBlock)
	addArgs := []uint64{uint64(t.m), uint64(a.m), uint64(bb.m), n}
	mulArgs := []uint64{uint64(r.m), uint64(t.m), uint64(c.m), n}

	bare := func(name string, body func(l *cuda.Launcher, s [2]cuda.Stream, e [3]cuda.Event) error) {
		b.Run(name, func(b *testing.B) {
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			require.NoError(b, cu.drv.SetCurrent(cu.ctx))
			var s [2]cuda.Stream
			var e [3]cuda.Event
			for i := range s {
				var err error
				s[i], err = cu.drv.StreamCreateNonBlocking()
				require.NoError(b, err)
			}
			for i := range e {
				var err error
				e[i], err = cu.drv.EventCreate()
				require.NoError(b, err)
			}
			l := cu.drv.NewLauncher()
			defer l.Close()
			b.ResetTimer()
			for range b.N {
				if err := body(l, s, e); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			for i := range s {
				require.NoError(b, cu.drv.StreamDestroy(s[i]))
			}
			for i := range e {
				require.NoError(b, cu.drv.EventDestroy(e[i]))
			}
		})
	}
	fa, fm := cu.funcs[kAdd], cu.funcs[kMul]
	bare("1-launch+stream-sync", func(l *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
		if err := l.Launch(fa, grid, elementwiseBlock, 0, s[0], addArgs); err != nil {
			return err
		}
		return cu.drv.StreamSynchronize(s[0])
	})
	bare("2-launches+stream-sync", func(l *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
		if err := l.Launch(fa, grid, elementwiseBlock, 0, s[0], addArgs); err != nil {
			return err
		}
		if err := l.Launch(fm, grid, elementwiseBlock, 0, s[0], mulArgs); err != nil {
			return err
		}
		return cu.drv.StreamSynchronize(s[0])
	})
	bare("2-launches+event-sync", func(l *cuda.Launcher, s [2]cuda.Stream, e [3]cuda.Event) error {
		if err := l.Launch(fa, grid, elementwiseBlock, 0, s[0], addArgs); err != nil {
			return err
		}
		if err := l.Launch(fm, grid, elementwiseBlock, 0, s[0], mulArgs); err != nil {
			return err
		}
		if err := cu.drv.EventRecord(e[2], s[0]); err != nil {
			return err
		}
		return cu.drv.EventSynchronize(e[2])
	})
	// The completion wait polled instead of blocking: the driver's query
	// until it answers done.
	spinStream := func(s cuda.Stream) error {
		for {
			done, err := cu.drv.StreamQuery(s)
			if err != nil || done {
				return err
			}
		}
	}
	spinEvent := func(e cuda.Event) error {
		for {
			done, err := cu.drv.EventQuery(e)
			if err != nil || done {
				return err
			}
		}
	}
	bare("1-launch+stream-query-spin", func(l *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
		if err := l.Launch(fa, grid, elementwiseBlock, 0, s[0], addArgs); err != nil {
			return err
		}
		return spinStream(s[0])
	})
	// The fused kernel Eval generates for (a+b)*c, launched bare: what
	// fused Eval's floor is.
	prog := fusedProgram{inputs: 3, nops: 2}
	prog.ops[0] = fusedOp{op: opAdd, a: 0, b: 1}
	prog.ops[1] = fusedOp{op: opMul, a: 3, b: 2}
	ff, err := cu.fusedFunction(&prog)
	require.NoError(b, err)
	fusedArgs := []uint64{uint64(t.m), uint64(r.m), uint64(a.m), uint64(bb.m), uint64(c.m), n}
	fgrid := uint32((n + elementwiseBlock - 1) / elementwiseBlock)
	bare("fused-launch+stream-sync", func(l *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
		if err := l.Launch(ff, fgrid, elementwiseBlock, 0, s[0], fusedArgs); err != nil {
			return err
		}
		return cu.drv.StreamSynchronize(s[0])
	})
	// The same kernel as a one-node graph, replayed: the launch the
	// fused Eval makes with graphs on.
	if cu.drv.GraphsSupported() {
		var g *cuda.KernelGraph
		require.NoError(b, cu.do(func() (err error) {
			g, err = cu.drv.NewKernelGraph(ff, fgrid, elementwiseBlock, 0, fusedArgs)
			return err
		}))
		bare("fused-graph+stream-sync", func(_ *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
			if err := g.Launch(ff, fgrid, elementwiseBlock, 0, s[0], fusedArgs); err != nil {
				return err
			}
			return cu.drv.StreamSynchronize(s[0])
		})
		require.NoError(b, cu.do(g.Destroy))
	}
	bare("fused-launch+event-sync", func(l *cuda.Launcher, s [2]cuda.Stream, e [3]cuda.Event) error {
		if err := l.Launch(ff, fgrid, elementwiseBlock, 0, s[0], fusedArgs); err != nil {
			return err
		}
		if err := cu.drv.EventRecord(e[2], s[0]); err != nil {
			return err
		}
		return cu.drv.EventSynchronize(e[2])
	})
	bare("fused-launch+stream-query-spin", func(l *cuda.Launcher, s [2]cuda.Stream, _ [3]cuda.Event) error {
		if err := l.Launch(ff, fgrid, elementwiseBlock, 0, s[0], fusedArgs); err != nil {
			return err
		}
		return spinStream(s[0])
	})
	bare("fused-launch+event-query-spin", func(l *cuda.Launcher, s [2]cuda.Stream, e [3]cuda.Event) error {
		if err := l.Launch(ff, fgrid, elementwiseBlock, 0, s[0], fusedArgs); err != nil {
			return err
		}
		if err := cu.drv.EventRecord(e[2], s[0]); err != nil {
			return err
		}
		return spinEvent(e[2])
	})
	// What CommandBuffer.Add, Barrier, Mul and Wait issue, without the
	// runtime around them.
	bare("2-lanes+barrier+event-sync", func(l *cuda.Launcher, s [2]cuda.Stream, e [3]cuda.Event) error {
		steps := []func() error{
			func() error { return l.Launch(fa, grid, elementwiseBlock, 0, s[0], addArgs) },
			func() error { return cu.drv.EventRecord(e[0], s[0]) },
			func() error { return cu.drv.EventRecord(e[1], s[1]) },
			func() error { return cu.drv.StreamWaitEvent(s[0], e[1]) },
			func() error { return cu.drv.StreamWaitEvent(s[1], e[0]) },
			func() error { return l.Launch(fm, grid, elementwiseBlock, 0, s[1], mulArgs) },
			func() error { return cu.drv.EventRecord(e[2], s[1]) },
			func() error { return cu.drv.EventSynchronize(e[2]) },
		}
		for _, f := range steps {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	})
	b.Run("command-buffer", func(b *testing.B) {
		cb, err := d.NewCommandBuffer()
		require.NoError(b, err)
		for range b.N {
			if err := cb.Add(t, a, bb); err != nil {
				b.Fatal(err)
			}
			if err := cb.Barrier(); err != nil {
				b.Fatal(err)
			}
			if err := cb.Mul(r, t, c); err != nil {
				b.Fatal(err)
			}
			if err := cb.Wait(); err != nil {
				b.Fatal(err)
			}
		}
	})
	evalOn := func(name string, d *Device) {
		b.Run(name, func(b *testing.B) {
			x := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return float32(i) }))
			y := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return 1 }))
			z := rttest.Array(b, FromSlice, d, rttest.Ramp(n, func(i int) float32 { return 2 }))
			for range b.N {
				tt := Add(x, y)
				rr := Mul(tt, z)
				if err := Eval(rr); err != nil {
					b.Fatal(err)
				}
				_ = tt.Free()
				_ = rr.Free()
			}
		})
	}
	evalOn("eval-unfused", rttest.Open(b, Open, WithFusion(false)))
	evalOn("eval-fused-direct", rttest.Open(b, Open, WithGraphs(false)))
	evalOn("eval-fused", d)
	// The completion wait's spin budget: none (block at once), the
	// default, and a longer one.
	for _, spin := range []time.Duration{0, 100 * time.Microsecond} {
		cu.spin.Store(int64(spin))
		evalOn(fmt.Sprintf("eval-fused-spin-%v", spin), d)
	}
	cu.spin.Store(int64(cudaWaitSpin))
	got, err := r.Floats()
	require.NoError(b, err)
	require.Equal(b, float32((5+1)*2), got[5])
}

// BenchmarkBareLaunchTwoStreams is BenchmarkBareLaunch alternating between
// two streams, as a command buffer's round-robin alternates between its
// two lanes: the reference for BenchmarkDispatch that issues the same
// driver calls.
func BenchmarkBareLaunchTwoStreams(b *testing.B) {
	d := cudaBench(b)
	cu := d.backend.(*cudaBackend)
	x := rttest.Upload(b, d, make([]float32, 1024))
	out := rttest.Upload(b, d, make([]float32, 1024))
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	require.NoError(b, cu.drv.SetCurrent(cu.ctx))
	var s [2]cuda.Stream
	for i := range s {
		var err error
		s[i], err = cu.drv.StreamCreateNonBlocking()
		require.NoError(b, err)
	}
	f := cu.funcs[kAdd]
	launcher := cu.drv.NewLauncher()
	defer launcher.Close()
	args := []uint64{uint64(out.m), uint64(x.m), uint64(x.m), 1024}
	grid := uint32((1024/4 + elementwiseBlock - 1) / elementwiseBlock)
	b.ResetTimer()
	for i := range b.N {
		if err := launcher.Launch(f, grid, elementwiseBlock, 0, s[i%2], args); err != nil {
			b.Fatal(err)
		}
		if i%dispatchBatch == dispatchBatch-1 {
			b.StopTimer()
			require.NoError(b, cu.drv.StreamSynchronize(s[0]))
			require.NoError(b, cu.drv.StreamSynchronize(s[1]))
			b.StartTimer()
		}
	}
	b.StopTimer()
	for i := range s {
		require.NoError(b, cu.drv.StreamSynchronize(s[i]))
		require.NoError(b, cu.drv.StreamDestroy(s[i]))
	}
}

// BenchmarkDispatchOneLane is BenchmarkDispatch with every dispatch on
// lane 0: the command buffer's counterpart of BenchmarkBareLaunch's one
// stream.
func BenchmarkDispatchOneLane(b *testing.B) {
	d := cudaBench(b)
	x := rttest.Upload(b, d, make([]float32, 1024))
	out := rttest.Upload(b, d, make([]float32, 1024))
	cb, err := d.NewCommandBuffer()
	require.NoError(b, err)
	cb.UseLane(0)
	b.ResetTimer()
	for i := range b.N {
		if err := cb.Add(out, x, x); err != nil {
			b.Fatal(err)
		}
		if i%dispatchBatch == dispatchBatch-1 {
			b.StopTimer()
			require.NoError(b, cb.Wait())
			cb.UseLane(0)
			b.StartTimer()
		}
	}
	b.StopTimer()
	require.NoError(b, cb.Wait())
}
