package model

import "github.com/guardlint/guardlint/invariants"

// Lock calls whose result says whether they took the mutex, so that the
// mutex is held only on the branch where they did.
var (
	// TryLockMethods are a C++ mutex's own methods that take it only when
	// it is free and return true then: the standard names, Abseil's
	// absl::Mutex, Qt's QMutex and QReadWriteLock.
	TryLockMethods = map[string]invariants.LockMode{
		"try_lock": invariants.Exclusive, "try_lock_shared": invariants.Shared,
		"TryLock": invariants.Exclusive, "WriterTryLock": invariants.Exclusive, "ReaderTryLock": invariants.Shared,
		"tryLock": invariants.Exclusive, "tryLockForWrite": invariants.Exclusive, "tryLockForRead": invariants.Shared,
	}
	// TryLockFuncs take a mutex's address and only when it is free; they
	// return 0 (thrd_success) when they took it, an error number when not.
	TryLockFuncs = map[string]invariants.LockMode{
		"pthread_mutex_trylock": invariants.Exclusive, "pthread_rwlock_trywrlock": invariants.Exclusive,
		"pthread_rwlock_tryrdlock": invariants.Shared, "pthread_spin_trylock": invariants.Exclusive,
		"mtx_trylock": invariants.Exclusive,
	}
)

// unlockOfTry is the call that gives up what each try-lock call takes.
var unlockOfTry = map[string]string{
	"try_lock": "unlock", "try_lock_shared": "unlock_shared",
	"TryLock": "Unlock", "WriterTryLock": "WriterUnlock", "ReaderTryLock": "ReaderUnlock",
	"tryLock": "unlock", "tryLockForWrite": "unlock", "tryLockForRead": "unlock",
	"pthread_mutex_trylock": "pthread_mutex_unlock", "pthread_rwlock_trywrlock": "pthread_rwlock_unlock",
	"pthread_rwlock_tryrdlock": "pthread_rwlock_unlock", "pthread_spin_trylock": "pthread_spin_unlock",
	"mtx_trylock": "mtx_unlock",
}

// TryLockMethod returns the mode of a C++ try-lock method
// (`mu.try_lock()`), and whether the name is one.
func TryLockMethod(name string) (invariants.LockMode, bool) {
	m, ok := TryLockMethods[name]
	return m, ok
}

// TryLockFunc returns the mode of a C try-lock function
// (`pthread_mutex_trylock(&mu)`), and whether the name is one.
func TryLockFunc(name string) (invariants.LockMode, bool) {
	m, ok := TryLockFuncs[name]
	return m, ok
}
