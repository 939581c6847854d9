package fix

import (
	"fmt"
	"go/types"
	"strings"
)

// loadBearingStd are the standard library's functions whose added call
// is what a concurrency fix is about, not a detail of it: the wake-ups
// and hand-offs of package sync (a Cond's Signal and Broadcast, a
// WaitGroup's Add, Done and Wait, a Once's Do), the atomic operations of
// sync/atomic, and the timers of package time that let a wait give up.
// Locks are not here: an added lock is proposed as hold or requires. Any
// other call of the standard library says nothing of the fix (fmt.Errorf
// in an added line) and is not proposed.
func loadBearingStd(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync":
		switch fn.Name() {
		case "Signal", "Broadcast", "Wait", "Add", "Done", "Do", "Go":
			return true
		}
	case "sync/atomic":
		return true
	case "time":
		switch fn.Name() {
		case "After", "AfterFunc", "NewTimer":
			return fn.Type().(*types.Signature).Recv() == nil
		}
	}
	return false
}

// stdName names a function of the standard library as invariants do:
// `time.After`, `(*sync.Cond).Broadcast`, `(*sync/atomic.Bool).Store`.
func stdName(fn *types.Func) string {
	path := fn.Pkg().Path()
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return path + "." + fn.Name()
	}
	t, ptr := recv.Type(), ""
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), "*"
	}
	named, ok := t.(*types.Named)
	if !ok || types.IsInterface(named) {
		return ""
	}
	name := named.Obj().Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return fmt.Sprintf("(%s%s.%s).%s", ptr, path, name, fn.Name())
}
