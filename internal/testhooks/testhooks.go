// Package testhooks switches off load-bearing behaviour of the runtime, for
// tests only.
//
// The runtime's regression guards must prove that they can fail: a test
// removes the barrier or the encoder retain through these hooks and checks
// that results go wrong, then restores them and checks that results are
// exact. Every hook is inert unless set, and production code never sets
// one. Hooks are process-global; tests that set them must not run in
// parallel with other tests of the runtime.
//
// The package sits in the module root's internal/ directory, so that the
// runtime and gpu_test (a top-level directory of its own) can import it
// and no code outside this module can: a program that uses the runtime
// cannot switch its barrier or its retain off.
package testhooks

import "sync/atomic"

var (
	skipRetain     atomic.Bool
	disableBarrier atomic.Bool
)

// SkipRetain makes (*Encoder).retain a no-op while on, so command buffers
// hold their encoder at +0 and the pool may recycle it under them. It
// returns a function that restores the previous setting.
func SkipRetain(on bool) (restore func()) {
	old := skipRetain.Swap(on)
	return func() { skipRetain.Store(old) }
}

// DisableBarrier makes (*Encoder).Barrier a no-op while on. It returns a
// function that restores the previous setting.
func DisableBarrier(on bool) (restore func()) {
	old := disableBarrier.Swap(on)
	return func() { disableBarrier.Store(old) }
}

// RetainSkipped reports whether SkipRetain is on.
func RetainSkipped() bool { return skipRetain.Load() }

// BarrierDisabled reports whether DisableBarrier is on.
func BarrierDisabled() bool { return disableBarrier.Load() }

var adversarialLanes atomic.Bool

// AdversarialLanes makes CPU devices opened while it is on schedule their
// lanes adversarially instead of concurrently: queued work runs only when
// the host waits for some of it, and then the lane holding the most
// recently queued work runs first, as far as the events allow. A reader
// that no event orders after its writer therefore runs before the writer,
// every time, whatever the machine's load; work that events order runs in
// their order, so correct code stays exact. Devices keep the mode they
// were opened with; CUDA devices ignore it, as a GPU has the real hazard.
// It returns a function that restores the previous setting.
func AdversarialLanes(on bool) (restore func()) {
	old := adversarialLanes.Swap(on)
	return func() { adversarialLanes.Store(old) }
}

// LanesAdversarial reports whether AdversarialLanes is on.
func LanesAdversarial() bool { return adversarialLanes.Load() }
