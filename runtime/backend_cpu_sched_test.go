package runtime

import (
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/internal/testhooks"
	"github.com/stretchr/testify/require"
)

// adversarialBackend returns a CPU backend with adversarial lanes and two
// lanes on it.
func adversarialBackend(t *testing.T) (*cpuSchedBackend, lane, lane) {
	t.Helper()
	restore := testhooks.AdversarialLanes(true)
	be, err := newCPUDevice(config{ordinal: 0, cpuDevices: 1, cpuMemory: 1 << 20})
	restore()
	require.NoError(t, err)
	b, ok := be.(*cpuSchedBackend)
	require.True(t, ok, "a CPU device opened with the hook on schedules adversarially")
	t.Cleanup(func() { require.NoError(t, b.close()) })
	l0, err := b.newLane()
	require.NoError(t, err)
	l1, err := b.newLane()
	require.NoError(t, err)
	return b, l0, l1
}

// TestAdversarialLanesRunTheLatestWorkFirst: nothing runs until the host
// waits; then the lane with the most recently queued work runs first, so
// an unordered reader on lane 1 reads before the writer on lane 0 writes.
func TestAdversarialLanesRunTheLatestWorkFirst(t *testing.T) {
	b, l0, l1 := adversarialBackend(t)
	var order []string
	require.NoError(t, b.sched.queue(l0, cpuItem{run: func() { order = append(order, "writer") }}))
	require.NoError(t, b.sched.queue(l1, cpuItem{run: func() { order = append(order, "reader") }}))
	require.Empty(t, order, "queued work waits for the host to wait")
	require.NoError(t, b.syncLane(l0))
	require.Equal(t, []string{"reader", "writer"}, order)
}

// TestAdversarialLanesKeepEventOrder: a reader that waits on an event
// recorded after the writer runs after it, though its work is the latest.
func TestAdversarialLanesKeepEventOrder(t *testing.T) {
	b, l0, l1 := adversarialBackend(t)
	ev, err := b.newEvent()
	require.NoError(t, err)
	var order []string
	require.NoError(t, b.sched.queue(l0, cpuItem{run: func() { order = append(order, "writer") }}))
	require.NoError(t, b.record(ev, l0))
	require.NoError(t, b.wait(l1, ev))
	require.NoError(t, b.sched.queue(l1, cpuItem{run: func() { order = append(order, "reader") }}))
	require.NoError(t, b.syncLane(l1))
	require.Equal(t, []string{"writer", "reader"}, order)
}

// TestAdversarialLanesReportDeadlock: lanes that wait on each other's
// earlier records drain; a host wait that no lane can reach returns an
// error instead of hanging. Through the backend's API a wait captures only
// a signal whose record is already queued, as cuStreamWaitEvent does, so
// no cycle can be built with it: the test queues a wait on a signal that
// nothing closes.
func TestAdversarialLanesReportDeadlock(t *testing.T) {
	b, l0, l1 := adversarialBackend(t)
	e0, err := b.newEvent()
	require.NoError(t, err)
	e1, err := b.newEvent()
	require.NoError(t, err)
	require.NoError(t, b.record(e0, l0))
	require.NoError(t, b.record(e1, l1))
	require.NoError(t, b.wait(l0, e1))
	require.NoError(t, b.wait(l1, e0))
	require.NoError(t, b.syncLane(l0))
	require.NoError(t, b.syncLane(l1))

	never := make(chan struct{})
	b.sched.mu.Lock()
	require.NoError(t, b.sched.pushLocked(l0, cpuItem{wait: never}, false))
	b.sched.mu.Unlock()
	require.ErrorIs(t, b.syncLane(l0), errLanesDeadlocked)
	close(never) // let the cleanup's close drain the lane
}

// TestAdversarialDeviceNamesItsMode: the device's description says which
// lanes it runs, so a log shows whether a guard ran adversarially.
func TestAdversarialDeviceNamesItsMode(t *testing.T) {
	require.Contains(t, rttest.OpenAdversarial(t, Open, WithBackend(BackendCPU)).String(), "adversarial lanes")
	require.Contains(t, rttest.Open(t, Open, WithBackend(BackendCPU)).String(), "goroutine lanes")
}
