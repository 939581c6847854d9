package model

import "github.com/guardlint/guardlint/invariants"

// A condition handed to a mutex runs under the mutex: absl::Mutex takes a
// predicate wrapped in absl::Condition (`mu_.Await(absl::Condition(this,
// &Pool::WorkAvailable))`) and evaluates it only while it holds the
// mutex, in the mode the method names, until it is true.

// ConditionWait is a method of a mutex that evaluates a condition.
type ConditionWait struct {
	// Takes says that the method takes the mutex itself, in Mode
	// (LockWhen); else the caller holds it, and the condition runs in
	// the caller's mode (Await).
	Takes bool
	Mode  invariants.LockMode
}

// ConditionWaits are absl::Mutex's methods that evaluate a Condition
// with the mutex held, by name.
var ConditionWaits = map[string]ConditionWait{
	"Await": {}, "AwaitWithTimeout": {}, "AwaitWithDeadline": {},
	"LockWhen": {true, invariants.Exclusive}, "LockWhenWithTimeout": {true, invariants.Exclusive}, "LockWhenWithDeadline": {true, invariants.Exclusive},
	"WriterLockWhen": {true, invariants.Exclusive}, "WriterLockWhenWithTimeout": {true, invariants.Exclusive}, "WriterLockWhenWithDeadline": {true, invariants.Exclusive},
	"ReaderLockWhen": {true, invariants.Shared}, "ReaderLockWhenWithTimeout": {true, invariants.Shared}, "ReaderLockWhenWithDeadline": {true, invariants.Shared},
}

// ConditionType is the last segment of the name of the class that wraps
// a predicate for ConditionWaits and the guards that take one
// (`absl::MutexLock l(&mu_, absl::Condition(...))`).
const ConditionType = "Condition"
