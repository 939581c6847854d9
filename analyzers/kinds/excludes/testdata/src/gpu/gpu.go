// Package gpu is a miniature runtime: an eval lock that a completion wait
// must never run under, and an exported lock that Flush takes itself.
package gpu

import "sync"

var (
	evalMu sync.Mutex
	// Mu is exported: importers can take it.
	Mu sync.Mutex
)

// wait blocks until the device's completion handler runs, which takes
// evalMu.
func wait() {}

// Stream is a queue of work.
type Stream struct{ n int }

// Synchronize waits for the stream's work.
func (s *Stream) Synchronize() { wait() }

// Flush takes Mu; its callers must not hold Mu.
func Flush() {
	Mu.Lock()
	defer Mu.Unlock()
}

// Eval encodes under the lock and waits after releasing it.
func Eval(s *Stream) {
	evalMu.Lock()
	s.n++
	evalMu.Unlock()
	wait()
}

// EvalRelocking gives the lock up around the wait: its callers' lock
// state does not matter.
func EvalRelocking(s *Stream) {
	evalMu.Lock()
	defer evalMu.Unlock()
	s.n++
	evalMu.Unlock()
	s.Synchronize()
	evalMu.Lock()
}

// waitLocked is called with evalMu held and gives it up to wait.
func waitLocked() {
	evalMu.Unlock()
	wait()
	evalMu.Lock()
}

// EvalAndWaitLocked calls a helper that releases the lock itself.
func EvalAndWaitLocked() {
	evalMu.Lock()
	defer evalMu.Unlock()
	waitLocked()
}

// Background waits on a goroutine, which starts with no lock held.
func Background(s *Stream) {
	evalMu.Lock()
	defer evalMu.Unlock()
	go wait()
	go func() { s.Synchronize() }()
}

// Deferred waits after the deferred unlock has run.
func Deferred() {
	defer wait()
	evalMu.Lock()
	defer evalMu.Unlock()
}

// sync waits without deciding the lock: its callers must not hold it.
func sync2(s *Stream) { s.Synchronize() } // want sync2:"excludes wait-unlocked gpu.evalMu: gpu.sync2 → \\(\\*gpu.Stream\\).Synchronize"

// Sync is exported, and reaches the wait through sync2.
func Sync(s *Stream) { sync2(s) } // want Sync:"excludes wait-unlocked gpu.evalMu: gpu.Sync → gpu.sync2 → \\(\\*gpu.Stream\\).Synchronize"

// FlushAll calls Flush: its callers must not hold Mu.
func FlushAll() { Flush() } // want FlushAll:"excludes flush-unlocked gpu.Mu: gpu.FlushAll → gpu.Flush"

// Reverts.

// WaitUnderLock waits with the lock held.
func WaitUnderLock() {
	evalMu.Lock()
	wait() // want `invariant wait-unlocked: gpu.WaitUnderLock calls gpu.wait while holding gpu.evalMu \(taken at line 90\), and gpu.wait must not run with gpu.evalMu held: gpu.WaitUnderLock → gpu.wait \(why: the completion handler`
	evalMu.Unlock()
}

// WaitUnderDeferredUnlock waits before the deferred unlock runs.
func WaitUnderDeferredUnlock(s *Stream) {
	evalMu.Lock()
	defer evalMu.Unlock()
	s.Synchronize() // want `gpu.WaitUnderDeferredUnlock calls \(\*gpu.Stream\).Synchronize while holding gpu.evalMu`
}

// WaitOnOneBranch may hold the lock at the wait.
func WaitOnOneBranch(locked bool) { // want WaitOnOneBranch:"excludes wait-unlocked gpu.evalMu: gpu.WaitOnOneBranch → gpu.wait"
	if locked {
		evalMu.Lock()
		defer evalMu.Unlock()
	}
	wait() // want `gpu.WaitOnOneBranch calls gpu.wait while holding gpu.evalMu`
}

// WaitThroughHelper reaches the wait through a function of the package.
func WaitThroughHelper(s *Stream) {
	evalMu.Lock()
	defer evalMu.Unlock()
	sync2(s) // want `gpu.WaitThroughHelper calls gpu.sync2 while holding gpu.evalMu \(taken at line 113\), and \(\*gpu.Stream\).Synchronize must not run with gpu.evalMu held: gpu.WaitThroughHelper → gpu.sync2 → \(\*gpu.Stream\).Synchronize`
}

// WaitDeferred defers the wait after the unlock: it runs first, under the
// lock.
func WaitDeferred() {
	evalMu.Lock()
	defer evalMu.Unlock()
	defer wait() // want `gpu.WaitDeferred calls gpu.wait while holding gpu.evalMu`
}

// WaitInCallback hands the wait to a runner while holding the lock.
func WaitInCallback(s *Stream) {
	evalMu.Lock()
	defer evalMu.Unlock()
	run(wait) // want `gpu.WaitInCallback hands gpu.wait to a call while holding gpu.evalMu \(taken at line 128\): the call may run it`
	run(func() {
		s.Synchronize() // want `gpu.WaitInCallback calls \(\*gpu.Stream\).Synchronize while holding gpu.evalMu`
	})
}

func run(f func()) {
	if f != nil {
		f()
	}
}

var hooks []func()

// StoreWait stores the wait for someone to call later, under whatever
// lock.
func StoreWait() {
	hooks = append(hooks, wait) // want `cannot verify: gpu.wait must not run with gpu.evalMu held, but is used here as a value that no call is handed`
}

// StoreLockingClosure stores a closure that waits under the lock.
func StoreLockingClosure() {
	hooks = append(hooks, func() {
		evalMu.Lock()
		defer evalMu.Unlock()
		wait() // want `gpu.StoreLockingClosure calls gpu.wait while holding gpu.evalMu`
	})
}

// FlushUnderMu calls Flush holding Mu, which Flush takes: a deadlock.
func FlushUnderMu() {
	Mu.Lock()
	defer Mu.Unlock()
	Flush() // want `gpu.FlushUnderMu calls gpu.Flush while holding gpu.Mu`
}
