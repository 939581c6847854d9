//go:build linux

package runtime

import (
	goruntime "runtime"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
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
