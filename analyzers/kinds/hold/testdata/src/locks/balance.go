package locks

import "sync"

// Balance: every path from the lock to a return releases it.

type device struct {
	mu      sync.RWMutex
	streams map[int]*stream
}

type stream struct{ n int }

func (d *device) unlock() { d.mu.Unlock() }

func (d *device) lockStreams() { d.mu.Lock() }

// --- balanced: silent ---

// unlockHelper releases through a method of the package that unlocks.
func (d *device) unlockHelper(s int) {
	d.mu.Lock()
	defer d.unlock()
	d.streams[s] = nil
}

// unlockEachPath unlocks explicitly before every return.
func (d *device) unlockEachPath(s int) bool {
	d.mu.Lock()
	if _, ok := d.streams[s]; ok {
		d.mu.Unlock()
		return false
	}
	d.streams[s] = &stream{}
	d.mu.Unlock()
	return true
}

// lockAndReturn hands the lock to its caller, and says so.
func (d *device) lockAndReturn() {
	d.mu.Lock()
	d.streams[0] = nil
}

// conditionalRelease unlocks under a condition that one path of the
// locking side also takes: which paths run together is not tracked, so a
// return some paths reach unlocked is not reported.
func (d *device) conditionalRelease(s int) {
	d.mu.Lock()
	locked := true
	defer func() {
		if locked {
			d.mu.Unlock()
		}
	}()
	d.streams[s] = nil
	d.mu.Unlock()
	locked = false
}

// panicsHeld panics with the lock held: a panic is not a return.
func (d *device) panicsHeld(s int) {
	d.mu.Lock()
	if s < 0 {
		panic("negative stream")
	}
	d.streams[s] = nil
	d.mu.Unlock()
}

// --- unbalanced: each fires ---

// deferredUnlockDeleted: the revert that deletes `defer d.mu.Unlock()`.
func (d *device) deferredUnlockDeleted(s int) {
	d.mu.Lock()
	d.streams[s] = nil
} // want `invariant deferred-unlock-deleted: \(locks.device\).mu is still held when \(\*locks.device\).deferredUnlockDeleted returns at the end of its body: every later acquisition of it blocks for ever`

// unlockDeletedOnOnePath forgets the unlock before its early return.
func (d *device) unlockDeletedOnOnePath(s int) bool {
	d.mu.Lock()
	if _, ok := d.streams[s]; ok {
		return false // want `invariant unlock-deleted-one-path: \(locks.device\).mu is still held when \(\*locks.device\).unlockDeletedOnOnePath returns here`
	}
	d.streams[s] = &stream{}
	d.mu.Unlock()
	return true
}

// lockedHelperCalled takes the lock through a helper and never releases
// it.
func (d *device) lockedHelperCalled(s int) {
	d.lockStreams()
	d.streams[s] = nil
} // want `invariant locked-helper-called: \(locks.device\).mu is still held`

func (d *device) maybeUnlock(ok bool) {
	if ok {
		d.mu.Unlock()
	}
}

// conditionalHelper calls a helper that releases the lock on one path
// only: it is no release.
func (d *device) conditionalHelper(s int) {
	d.mu.Lock()
	d.streams[s] = nil
	d.maybeUnlock(s > 0)
} // want `invariant conditional-helper: \(locks.device\).mu is still held`
