package model

import (
	"slices"

	"github.com/guardlint/guardlint/invariants"
)

// The lock calls the front ends recognise, by name, written once for the
// languages' guard models (cfamily, rustlang), the acquisitions the lock
// kinds read, and the reverts of guardlint prove.
var (
	// LockMethods are a C++ mutex's own methods that lock it
	// (`mu.lock()`), with the mode they take.
	// The standard names; Abseil's absl::Mutex (Lock, WriterLock,
	// ReaderLock); Qt's QReadWriteLock (lockForWrite, lockForRead).
	LockMethods = map[string]invariants.LockMode{
		"lock": invariants.Exclusive, "lock_shared": invariants.Shared,
		"Lock": invariants.Exclusive, "WriterLock": invariants.Exclusive, "ReaderLock": invariants.Shared,
		"lockForWrite": invariants.Exclusive, "lockForRead": invariants.Shared,
	}
	// UnlockMethods give up what LockMethods take.
	UnlockMethods = map[string]bool{"unlock": true, "unlock_shared": true, "Unlock": true, "WriterUnlock": true, "ReaderUnlock": true}
	// LockFuncs take a mutex's address (`pthread_mutex_lock(&mu)`).
	LockFuncs = map[string]invariants.LockMode{
		"pthread_mutex_lock": invariants.Exclusive, "pthread_rwlock_wrlock": invariants.Exclusive,
		"pthread_rwlock_rdlock": invariants.Shared, "mtx_lock": invariants.Exclusive, "pthread_spin_lock": invariants.Exclusive,
	}
	// UnlockFuncs give up what LockFuncs take.
	UnlockFuncs = map[string]bool{"pthread_mutex_unlock": true, "pthread_rwlock_unlock": true, "mtx_unlock": true, "pthread_spin_unlock": true}
	// GuardMethods are the Rust methods whose call yields a guard, with
	// the mode it holds: Mutex::lock, RwLock::write and RwLock::read (std
	// and parking_lot).
	GuardMethods = map[string]invariants.LockMode{"lock": invariants.Exclusive, "write": invariants.Exclusive, "read": invariants.Shared}
	// TryGuardMethods are the Rust methods that yield a guard only when
	// the lock is free: a Result (std) or an Option (parking_lot, spin)
	// around it. Their guard holds where the code has taken it out: past
	// an unwrap or a `?`, or in the branch whose pattern binds it
	// (`if let Ok(g) = m.try_lock()`).
	TryGuardMethods = map[string]invariants.LockMode{"try_lock": invariants.Exclusive, "try_write": invariants.Exclusive, "try_read": invariants.Shared}
)

// GuardModes are the C++ guard classes built in, by the last segment of
// their name, and the mode they lock in: the standard ones (and Boost's,
// which share their names), Abseil's, Qt's, and Chromium's
// base::AutoLock.
var GuardModes = map[string]invariants.LockMode{
	"lock_guard":  invariants.Exclusive,
	"unique_lock": invariants.Exclusive,
	"scoped_lock": invariants.Exclusive,
	"shared_lock": invariants.Shared,
	// absl::MutexLock, absl::WriterMutexLock, absl::ReleasableMutexLock,
	// absl::ReaderMutexLock: constructed with the mutex's address.
	"MutexLock":           invariants.Exclusive,
	"WriterMutexLock":     invariants.Exclusive,
	"ReleasableMutexLock": invariants.Exclusive,
	"ReaderMutexLock":     invariants.Shared,
	// absl::base_internal::SpinLockHolder: constructed with the spin
	// lock's address.
	"SpinLockHolder": invariants.Exclusive,
	// QMutexLocker and QReadWriteLock's lockers.
	"QMutexLocker": invariants.Exclusive,
	"QWriteLocker": invariants.Exclusive,
	"QReadLocker":  invariants.Shared,
	"AutoLock":     invariants.Exclusive,
}

// GuardReleases are the methods that release a built-in C++ guard class
// before its scope ends, by the last segment of the class's name, beyond
// `unlock()` (std::unique_lock, QMutexLocker), which every guard is read
// with: Abseil's and gRPC's ReleasableMutexLock::Release().
var GuardReleases = map[string][]string{"ReleasableMutexLock": {"Release"}}

// GuardMode returns the mode of a C++ guard class, given the segments of
// its name as written (`absl::MutexLock` is absl, MutexLock): a class
// the invariants file declares, whose name must end the written one
// segment by segment, or a built-in one by its last segment.
func (c *Config) GuardMode(segs []string) (invariants.LockMode, bool) {
	if len(segs) == 0 {
		return "", false
	}
	if c != nil {
		for _, g := range c.Guards {
			if len(g.Scoped) <= len(segs) && slices.Equal(segs[len(segs)-len(g.Scoped):], g.Scoped) {
				return g.Mode, true
			}
		}
	}
	m, ok := GuardModes[segs[len(segs)-1]]
	return m, ok
}

// LockMethod returns the mode of a C family lock method (`mu_.Lock()`),
// built in or declared, and whether the name is one.
func (c *Config) LockMethod(name string) (invariants.LockMode, bool) {
	if m, ok := LockMethods[name]; ok {
		return m, true
	}
	return c.declaredLock(name)
}

// LockFunc returns the mode of a C family lock function that takes the
// mutex's address (`pthread_mutex_lock(&mu)`), built in or declared.
func (c *Config) LockFunc(name string) (invariants.LockMode, bool) {
	if m, ok := LockFuncs[name]; ok {
		return m, true
	}
	return c.declaredLock(name)
}

// UnlockMethod reports whether a method gives up a mutex (`mu_.Unlock()`).
func (c *Config) UnlockMethod(name string) bool {
	return UnlockMethods[name] || (c != nil && slices.Contains(c.LockCalls.Unlock, name))
}

// UnlockFunc reports whether a function gives up the mutex whose address
// it takes.
func (c *Config) UnlockFunc(name string) bool {
	return UnlockFuncs[name] || (c != nil && slices.Contains(c.LockCalls.Unlock, name))
}

// declaredLock looks a lock call up in the invariants file's lock_calls.
func (c *Config) declaredLock(name string) (invariants.LockMode, bool) {
	switch {
	case c == nil:
	case slices.Contains(c.LockCalls.Exclusive, name):
		return invariants.Exclusive, true
	case slices.Contains(c.LockCalls.Shared, name):
		return invariants.Shared, true
	}
	return "", false
}

// RustGuardMethod returns the mode of a Rust lock method, plain, try_ or
// declared in lock_calls, and whether the name is one.
func (c *Config) RustGuardMethod(name string) (invariants.LockMode, bool) {
	if m, ok := GuardMethods[name]; ok {
		return m, true
	}
	if m, ok := TryGuardMethods[name]; ok {
		return m, true
	}
	return c.declaredLock(name)
}

// unlockOf is the call that gives up what each lock call takes.
var unlockOf = map[string]string{
	"lock": "unlock", "lock_shared": "unlock_shared", "pthread_mutex_lock": "pthread_mutex_unlock",
	"pthread_rwlock_wrlock": "pthread_rwlock_unlock", "pthread_rwlock_rdlock": "pthread_rwlock_unlock",
	"mtx_lock": "mtx_unlock", "pthread_spin_lock": "pthread_spin_unlock",
	"Lock": "Unlock", "WriterLock": "WriterUnlock", "ReaderLock": "ReaderUnlock",
	"lockForWrite": "unlock", "lockForRead": "unlock",
}

// UnlockOf names the call that gives up what the lock call named lock
// takes (`unlock` for `lock`, `pthread_mutex_unlock` for
// `pthread_mutex_lock`), "" for a name that is no lock call of the C
// family.
func UnlockOf(lock string) string {
	if u, ok := unlockOfTry[lock]; ok {
		return u
	}
	return unlockOf[lock]
}
