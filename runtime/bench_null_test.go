package runtime

import (
	"sync/atomic"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
)

// nullBackend does no work: every call succeeds at once. Benchmarks run
// the runtime on it to measure the runtime's own host cost per dispatch
// and per evaluation, which on a real device hides among the driver's.
type nullBackend struct{ next atomic.Uint64 }

func (b *nullBackend) kind() Backend                                     { return BackendCPU }
func (b *nullBackend) describe() string                                  { return "null" }
func (b *nullBackend) alloc(int) (mem, error)                            { return mem(b.next.Add(1)), nil }
func (b *nullBackend) free(mem) error                                    { return nil }
func (b *nullBackend) upload(mem, []float32) error                       { return nil }
func (b *nullBackend) download([]float32, mem) error                     { return nil }
func (b *nullBackend) copyAsync(lane, mem, mem, int) error               { return nil }
func (b *nullBackend) newLane() (lane, error)                            { return lane(b.next.Add(1)), nil }
func (b *nullBackend) destroyLane(lane) error                            { return nil }
func (b *nullBackend) newEvent() (event, error)                          { return event(b.next.Add(1)), nil }
func (b *nullBackend) destroyEvent(event) error                          { return nil }
func (b *nullBackend) record(event, lane) error                          { return nil }
func (b *nullBackend) wait(lane, event) error                            { return nil }
func (b *nullBackend) syncEvent(event) error                             { return nil }
func (b *nullBackend) syncLane(lane) error                               { return nil }
func (b *nullBackend) launch(lane, *launch) error                        { return nil }
func (b *nullBackend) canFuse() bool                                     { return true }
func (b *nullBackend) launchFused(lane, *fusedProgram, []mem, int) error { return nil }
func (b *nullBackend) close() error                                      { return nil }

// openNull opens a device on a nullBackend, as Open would.
func openNull(tb testing.TB, opts ...Option) *Device {
	cfg, err := resolveConfig(opts)
	if err != nil {
		tb.Fatal(err)
	}
	d := &Device{cfg: cfg, backend: &nullBackend{}, live: map[mem]int{}, cache: map[int][]mem{}}
	d.pool = newEncoderPool(d, cfg.lanes)
	d.stream = &Stream{dev: d}
	return d
}

// BenchmarkEvalHostCost is BenchmarkRoundTrip's (a+b)*c on a backend that
// does nothing: what the runtime itself costs per round trip.
func BenchmarkEvalHostCost(b *testing.B) {
	for _, fused := range []bool{true, false} {
		name := "fused"
		if !fused {
			name = "unfused"
		}
		b.Run(name, func(b *testing.B) {
			d := openNull(b, WithFusion(fused))
			const n = 4096
			x, err := FromSlice(d, make([]float32, n))
			if err != nil {
				b.Fatal(err)
			}
			y, _ := FromSlice(d, make([]float32, n))
			z, _ := FromSlice(d, make([]float32, n))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				t := Add(x, y)
				r := Mul(t, z)
				if err := Eval(r); err != nil {
					b.Fatal(err)
				}
				_ = t.Free()
				_ = r.Free()
			}
		})
	}
}

// BenchmarkDispatchHostCost is BenchmarkDispatch on a backend that does
// nothing.
func BenchmarkDispatchHostCost(b *testing.B) {
	d := openNull(b)
	x := rttest.Upload(b, d, make([]float32, 1024))
	out := rttest.Upload(b, d, make([]float32, 1024))
	cb, err := d.NewCommandBuffer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := cb.Add(out, x, x); err != nil {
			b.Fatal(err)
		}
		if i%dispatchBatch == dispatchBatch-1 {
			if err := cb.Wait(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
