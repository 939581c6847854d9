// Package gpu is a miniature runtime: an eval lock that must be held for
// every dispatch, and a registry under a read-write lock.
package gpu

import "sync"

var (
	evalMu sync.Mutex
	regMu  sync.RWMutex
)

// Encoder records dispatches; every dispatch needs evalMu.
type Encoder struct{ n int }

func (e *Encoder) dispatchLocked() { e.n++ }

func encodeNode(e *Encoder) { e.dispatchLocked() }

// LockEval and UnlockEval are the declared acquire and release helpers.
func LockEval() { evalMu.Lock() }

func UnlockEval() { evalMu.Unlock() }

// Eval holds the lock for the whole evaluation.
func Eval(e *Encoder) {
	evalMu.Lock()
	defer evalMu.Unlock()
	evalLocked(e)
}

func evalLocked(e *Encoder) { encodeNode(e) } // want evalLocked:"requires encode-locked gpu.evalMu \\(exclusive\\): gpu.evalLocked → gpu.encodeNode"

// EvalWithHelper takes the lock through the declared helpers.
func EvalWithHelper(e *Encoder) {
	LockEval()
	defer UnlockEval()
	evalLocked(e)
}

// EvalPointer takes the lock through a pointer to it.
func EvalPointer(e *Encoder) {
	p := &evalMu
	p.Lock()
	defer func() { p.Unlock() }()
	e.dispatchLocked()
}

// EncodeNow is a new entry point that dispatches without the lock.
func EncodeNow(e *Encoder) { // want EncodeNow:"requires encode-locked"
	e.dispatchLocked() // want `invariant encode-locked: exported function gpu.EncodeNow calls \(\*gpu.Encoder\).dispatchLocked without holding gpu.evalMu \(exclusive\), and nothing shows its callers hold it: gpu.EncodeNow → \(\*gpu.Encoder\).dispatchLocked; every call of \(\*gpu.Encoder\).dispatchLocked needs the lock \(why: two goroutines`
}

// Submit reaches the dispatch through a helper two calls deep.
func Submit(e *Encoder) { // want Submit:"requires encode-locked"
	prepare(e) // want `exported function gpu.Submit calls gpu.prepare without holding gpu.evalMu .*: gpu.Submit → gpu.prepare → gpu.record → \(\*gpu.Encoder\).dispatchLocked;`
}

func prepare(e *Encoder) { record(e) } // want prepare:"gpu.prepare → gpu.record → \\(\\*gpu.Encoder\\).dispatchLocked"

func record(e *Encoder) { e.dispatchLocked() } // want record:"requires encode-locked"

var hooks []func()

// Register stores a closure that dispatches when someone calls it later.
func Register(e *Encoder) {
	evalMu.Lock()
	defer evalMu.Unlock()
	hooks = append(hooks, func() {
		e.dispatchLocked() // want `function literal that does not run where it is written \(stored, returned or passed on\) calls \(\*gpu.Encoder\).dispatchLocked without holding gpu.evalMu`
	})
}

// EvalInline runs its closures in place, under the lock.
func EvalInline(e *Encoder) {
	evalMu.Lock()
	defer evalMu.Unlock()
	func() { e.dispatchLocked() }()
	run := func() { encodeNode(e) }
	run()
}

// Background starts goroutines, which start with no lock held.
func Background(e *Encoder) {
	evalMu.Lock()
	defer evalMu.Unlock()
	go evalLocked(e) // want `goroutine started in gpu.Background runs gpu.evalLocked without gpu.evalMu \(exclusive\): a goroutine starts holding no lock: gpu.evalLocked → gpu.encodeNode`
	go func() {
		encodeNode(e) // want `goroutine calls gpu.encodeNode without holding gpu.evalMu`
	}()
}

// UnlockEarly gives the lock up before the dispatch.
func UnlockEarly(e *Encoder) { // want UnlockEarly:"requires encode-locked"
	evalMu.Lock()
	evalMu.Unlock()
	e.dispatchLocked() // want `exported function gpu.UnlockEarly calls`
}

// OneBranch locks on one path only.
func OneBranch(e *Encoder, fast bool) { // want OneBranch:"requires encode-locked"
	if !fast {
		evalMu.Lock()
		defer evalMu.Unlock()
	}
	e.dispatchLocked() // want `exported function gpu.OneBranch calls`
}

// EarlyReturn returns before taking the lock; the dispatch is after it.
func EarlyReturn(e *Encoder, skip bool) {
	if skip {
		return
	}
	if e == nil {
		panic("nil encoder")
	}
	evalMu.Lock()
	defer evalMu.Unlock()
	e.dispatchLocked()
}

// DeferredDispatch: deferred calls run last in, first out, so the
// dispatch runs before the unlock.
func DeferredDispatch(e *Encoder) {
	evalMu.Lock()
	defer evalMu.Unlock()
	defer e.dispatchLocked()
}

// DeferredWrongOrder unlocks first, then dispatches.
func DeferredWrongOrder(e *Encoder) { // want DeferredWrongOrder:"requires encode-locked"
	evalMu.Lock()
	defer e.dispatchLocked() // want `exported function gpu.DeferredWrongOrder calls`
	defer evalMu.Unlock()
}

// Disabled never dispatches.
func Disabled(e *Encoder) {
	if false {
		e.dispatchLocked()
	}
	const debug = false
	if debug {
		encodeNode(e)
	}
}

type stepper interface{ step() }

type node struct{ e *Encoder }

func (n *node) step() { // want step:"requires encode-locked"
	n.e.dispatchLocked() // want `method \(\*gpu.node\).step, which can be called through interface stepper, calls`
}

var _ stepper = (*node)(nil)

type flusher interface {
	flush()
	reset()
}

// batch implements flusher through its value and pointer methods together.
type batch struct{ e *Encoder }

func (b batch) flush() { // want flush:"requires encode-locked"
	b.e.dispatchLocked() // want `method \(gpu.batch\).flush, which can be called through interface flusher, calls`
}

func (b *batch) reset() { b.e = nil }

var _ flusher = (*batch)(nil)

// Table hands a function that needs the lock out as a value.
func Table() []func(*Encoder) {
	return []func(*Encoder){evalLocked} // want `gpu.evalLocked needs gpu.evalMu held by its callers \(exclusive\), but is used here as a function value`
}

func registerLocked() {}

func lookupLocked() {}

// RegisterReadLocked holds the read lock where the write lock is needed.
func RegisterReadLocked() {
	regMu.RLock()
	defer regMu.RUnlock()
	registerLocked() // want `gpu.RegisterReadLocked holds gpu.regMu only for reading \(RLock\) where it calls gpu.registerLocked, which needs it exclusive \(Lock\)`
}

// Lookup holds the read lock, which a lookup needs.
func Lookup() {
	regMu.RLock()
	defer regMu.RUnlock()
	lookupLocked()
}

// LookupWriteLocked: the write lock meets a read requirement.
func LookupWriteLocked() {
	regMu.Lock()
	defer regMu.Unlock()
	lookupLocked()
	registerLocked()
}

// EncodeLocked states its requirement inline: its callers hold evalMu.
//
//guardlint:requires evalMu
func EncodeLocked(e *Encoder) { // want EncodeLocked:"requires encode-locked"
	e.dispatchLocked()
	evalLocked(e)
}

// relock takes the lock its annotation says its callers hold.
//
//guardlint:requires evalMu
func relock(e *Encoder) { // want relock:"requires encode-locked"
	evalMu.Lock() // want `gpu.relock takes gpu.evalMu, but is annotated //guardlint:requires: its callers already hold the lock`
	e.dispatchLocked()
	evalMu.Unlock()
}

// wrongMode: the invariants on regMu ask for exclusive and shared, so the
// annotation must say which.
//
//guardlint:requires regMu shared
func wrongMode() { registerLocked() } // want wrongMode:"requires register-write-locked"

// unknownLock names a lock no requires invariant names.
//
//guardlint:requires otherMu // want `guardlint:requires on gpu.unknownLock: no requires invariant names the lock gpu.otherMu`
func unknownLock() {}

var otherMu sync.Mutex

// malformed has no lock.
//
//guardlint:requires // want `guardlint:requires on gpu.malformed: want a lock and optionally a mode`
func malformed() {}

// Suppressed dispatches without the lock, on purpose.
func Suppressed(e *Encoder) { // want Suppressed:"requires encode-locked"
	//guardlint:ignore encode-locked the encoder here is private to this goroutine
	e.dispatchLocked()
}
