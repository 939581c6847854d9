//go:build linux

package cuda

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// These benchmarks break a dispatch down into its host costs.

func BenchmarkGettid(b *testing.B) {
	for range b.N {
		_ = syscall.Gettid()
	}
}

func BenchmarkSetCurrentCached(b *testing.B) {
	d := open(b)
	ctx := new(Context)
	require.NoError(b, d.call("cuCtxGetCurrent", d.cuCtxGetCurrent, uintptr(unsafe.Pointer(ctx))))
	b.ResetTimer()
	for range b.N {
		if err := d.SetCurrent(*ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCtxGetCurrent(b *testing.B) {
	d := open(b)
	ctx := new(Context)
	for range b.N {
		if err := d.call("cuCtxGetCurrent", d.cuCtxGetCurrent, uintptr(unsafe.Pointer(ctx))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCtxSetCurrentUncached(b *testing.B) {
	d := open(b)
	ctx := new(Context)
	require.NoError(b, d.call("cuCtxGetCurrent", d.cuCtxGetCurrent, uintptr(unsafe.Pointer(ctx))))
	b.ResetTimer()
	for range b.N {
		if err := d.call("cuCtxSetCurrent", d.cuCtxSetCurrent, uintptr(*ctx)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEventRecordAndWait(b *testing.B) {
	d := open(b)
	s0, err := d.StreamCreateNonBlocking()
	require.NoError(b, err)
	s1, err := d.StreamCreateNonBlocking()
	require.NoError(b, err)
	e, err := d.EventCreate()
	require.NoError(b, err)
	b.ResetTimer()
	for i := range b.N {
		if err := d.EventRecord(e, s0); err != nil {
			b.Fatal(err)
		}
		if err := d.StreamWaitEvent(s1, e); err != nil {
			b.Fatal(err)
		}
		if i%256 == 255 {
			b.StopTimer()
			require.NoError(b, d.StreamSynchronize(s1))
			b.StartTimer()
		}
	}
	b.StopTimer()
	require.NoError(b, d.StreamSynchronize(s1))
}

func BenchmarkEventSynchronizeIdle(b *testing.B) {
	d := open(b)
	s0, err := d.StreamCreateNonBlocking()
	require.NoError(b, err)
	e, err := d.EventCreate()
	require.NoError(b, err)
	require.NoError(b, d.EventRecord(e, s0))
	b.ResetTimer()
	for range b.N {
		if err := d.EventSynchronize(e); err != nil {
			b.Fatal(err)
		}
	}
}
