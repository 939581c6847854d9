package model

import "github.com/guardlint/guardlint/invariants"

// The lock calls the front ends recognise, by name, written once for the
// languages' guard models (cfamily, rustlang), the acquisitions the lock
// kinds read, and the reverts of guardlint prove.
var (
	// LockMethods are a C++ mutex's own methods that lock it
	// (`mu.lock()`), with the mode they take.
	LockMethods = map[string]invariants.LockMode{"lock": invariants.Exclusive, "lock_shared": invariants.Shared}
	// UnlockMethods give up what LockMethods take.
	UnlockMethods = map[string]bool{"unlock": true, "unlock_shared": true}
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
)

// unlockOf is the call that gives up what each lock call takes.
var unlockOf = map[string]string{
	"lock": "unlock", "lock_shared": "unlock_shared", "pthread_mutex_lock": "pthread_mutex_unlock",
	"pthread_rwlock_wrlock": "pthread_rwlock_unlock", "pthread_rwlock_rdlock": "pthread_rwlock_unlock",
	"mtx_lock": "mtx_unlock", "pthread_spin_lock": "pthread_spin_unlock",
}

// UnlockOf names the call that gives up what the lock call named lock
// takes (`unlock` for `lock`, `pthread_mutex_unlock` for
// `pthread_mutex_lock`), "" for a name that is no lock call of the C
// family.
func UnlockOf(lock string) string { return unlockOf[lock] }
