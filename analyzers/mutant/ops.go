package mutant

// Reverts of a statement that holds a guarded call. Each takes the
// statement out of the code that runs in its own way; together they are
// the ways text-matching guards are known to be fooled.
const (
	OpDelete       = "delete"           // the statement is gone
	OpLineComment  = "line-comment"     // // before every line
	OpBlockComment = "block-comment"    // /* ... */
	OpIfFalse      = "if-false"         // if false { ... }
	OpConstFalse   = "const-false"      // if debug { ... }, const debug = false
	OpAfterReturn  = "after-return"     // a return (or panic) just before it
	OpMoved        = "moved"            // moved into a new function nobody calls
	OpWrongRecv    = "wrong-receiver"   // the same method called on another type
	OpClosure      = "uncalled-closure" // _ = func() { ... }
	OpString       = "string-literal"   // _ = "..."
	OpOneBranch    = "one-branch"       // if cond { ... }, cond not constant
	// OpCompiledOut is the C family's `#if 0` and Rust's `#[cfg(any())]`:
	// the statement is compiled out. Go's nearest revert is const-false.
	OpCompiledOut = "compiled-out"
)

// Reverts of a lock held for a function's body.
const (
	OpLockDeleted   = "lock-deleted"           // Lock and its deferred Unlock gone
	OpEmptySection  = "empty-critical-section" // Lock(); Unlock() then the work
	OpUnlockedEarly = "unlocked-early"         // the Unlock moved above the last statement that does work
	OpUnlockToLock  = "unlock-to-lock"         // defer Unlock() typed as defer Lock()
	OpAnotherLock   = "another-lock"           // a new mutex of the same type
	OpLockedLate    = "locked-late"            // Lock after the first work
	OpLockOneBranch = "lock-one-branch"        // if cond { Lock() }
	OpNestedScope   = "nested-scope"           // func() { Lock(); defer Unlock() }()
	OpDeferredLock  = "deferred-lock"          // defer Lock()
	// Reverts of a guard object (C++) or guard binding (Rust) that have no
	// Go spelling.
	OpLetUnderscore = "let-underscore" // let _ = m.lock(): the guard is dropped at once
	OpOtherMode     = "other-mode"     // the guard of the other mode: shared for exclusive and back
	OpOutOfScope    = "out-of-scope"   // the access moved out of the guard's scope
)

// HoldOps are the reverts of a held lock.
var HoldOps = []string{OpLockDeleted, OpEmptySection, OpUnlockedEarly, OpAnotherLock, OpLockedLate, OpLockOneBranch, OpNestedScope, OpDeferredLock, OpUnlockToLock, OpUnlockDeleted, OpUnlockDeletedOnePath}

// The reverts that bring a lock where it must not be: a lock taken in the
// wrong order, a call moved under a lock, a callback that takes a lock.
const (
	OpLockReversed  = "lock-reversed"   // an earlier lock taken right after a later one
	OpLocksSwapped  = "locks-swapped"   // two nested acquisitions swapped
	OpCallUnderLock = "call-under-lock" // a call wrapped in Lock/Unlock
	OpCallAdded     = "call-added"      // a call made right after the lock is taken
	OpCallbackLocks = "callback-locks"  // a callback that takes the lock
)

// Reverts of the release of a held lock: the function returns with the
// lock held, and every later acquisition blocks.
const (
	// OpUnlockDeleted deletes the release that covers every return: the
	// deferred unlock, or, without one, the last explicit unlock of the
	// outermost block.
	OpUnlockDeleted = "unlock-deleted"
	// OpUnlockDeletedOnePath deletes one explicit unlock right before a
	// return (or at the end of the body): an early return that forgets
	// it.
	OpUnlockDeletedOnePath = "unlock-deleted-one-path"
	// OpGuardForgotten gives up a guard object or binding without
	// unlocking right after it is declared: Rust's
	// `std::mem::forget(g);`, C++'s `lk.release();`.
	OpGuardForgotten = "guard-forgotten"
)
