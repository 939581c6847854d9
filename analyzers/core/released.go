package core

// ReleasedCall is a function that a fix's Function called with Lock held
// before the fix and calls with it released after: the fix moved the
// call out of the lock's region, or gave the lock up before it (a
// promise set after the unlock, so that the woken waiter may destroy
// what the lock protects). Callee is the called function as an
// invariant names it among the files of Origin (Files and MoreFiles,
// which hold its definition); Lock is the lock as the function spells
// it. Origin's line is the call after the fix.
type ReleasedCall struct {
	Origin
	Callee, Lock string
}
