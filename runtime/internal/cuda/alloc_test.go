//go:build linux

package cuda

import (
	"testing"

	"github.com/ebitengine/purego"
	"github.com/stretchr/testify/require"
)

// TestHotCallsAllocateNothing: the calls on the runtime's hot path (an
// event record, a stream wait, a query, a blocking wait) take their
// argument lists from a pool instead of building one per call, which
// purego moved to the heap. No GPU is needed: the entry point called is
// the C library's abs, which answers 0 (CUDA_SUCCESS) for 0.
func TestHotCallsAllocateNothing(t *testing.T) {
	libc, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Skipf("no C library to call: %v", err)
	}
	abs, err := purego.Dlsym(libc, "abs")
	require.NoError(t, err)
	d := &Driver{cuEventRecord: abs, cuStreamWaitEvent: abs, cuEventQuery: abs, cuEventSynchronize: abs, cuStreamSynchronize: abs}
	calls := func() {
		require.NoError(t, d.EventRecord(0, 0))
		require.NoError(t, d.StreamWaitEvent(0, 0))
		require.NoError(t, d.StreamSynchronize(0))
		done, err := d.EventQuery(0)
		require.NoError(t, err)
		require.True(t, done)
		require.NoError(t, d.EventWait(0, 1<<30))
		require.NoError(t, d.EventWait(0, 0))
	}
	calls()
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop lists on purpose: the count is checked without it")
	}
	require.Zero(t, testing.AllocsPerRun(100, calls))
}
