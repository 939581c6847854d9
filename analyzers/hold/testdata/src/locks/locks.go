package locks

import "sync"

var (
	evalMu  sync.Mutex
	otherMu sync.Mutex
)

const debug = false

func work() int { return 1 }
func use(int)   {}

func lockEval()   { evalMu.Lock() }
func unlockEval() { evalMu.Unlock() }

type registry struct {
	mu sync.RWMutex
	m  map[string]int
}

type guarded struct {
	sync.Mutex
	n int
}

// --- equivalent shapes: silent ---

func goodDefer() {
	evalMu.Lock()
	defer evalMu.Unlock()
	work()
}

func goodDeferClosure() {
	evalMu.Lock()
	defer func() { evalMu.Unlock() }()
	work()
}

func goodAlias() {
	p := &evalMu
	p.Lock()
	defer p.Unlock()
	work()
}

func goodHelper() {
	lockEval()
	defer unlockEval()
	work()
}

func goodLiteral() {
	func() { evalMu.Lock() }()
	defer evalMu.Unlock()
	work()
}

func goodVar() {
	var x int
	const n = 2
	evalMu.Lock()
	defer evalMu.Unlock()
	x = work() * n
	use(x)
}

func (r *registry) lookup(k string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.m[k]
}

func (r *registry) register(k string, v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[k] = v
}

func (g *guarded) bump() {
	g.Lock()
	defer g.Unlock()
	g.n++
}

// --- reverts: each fires ---

func deleted() { // want `invariant deleted: locks.deleted must hold locks.evalMu \(exclusive\) from before its first statement that does work to every return, and never acquires it \(why: w\)`
	work()
}

func lockUnlockThenWork() {
	evalMu.Lock()
	evalMu.Unlock()
	work() // want `invariant lock-unlock-then-work: locks.evalMu is not held here; locks.lockUnlockThenWork must hold it \(exclusive\)`
}

func deferLock() { // want `invariant defer-lock: .*never acquires it`
	defer evalMu.Lock()
	work()
}

func anotherMutex() { // want `invariant another-mutex: .*never acquires it`
	otherMu.Lock()
	defer otherMu.Unlock()
	work()
}

func lockedLate() {
	x := work() // want `invariant locked-late: locks.evalMu is not held here`
	evalMu.Lock()
	defer evalMu.Unlock()
	use(x)
}

func oneBranch(ok bool) {
	if ok { // want `invariant one-branch: locks.evalMu is not held here`
		evalMu.Lock()
		defer evalMu.Unlock()
	}
	work()
}

func unlockedEarly() {
	evalMu.Lock()
	work()
	evalMu.Unlock()
	work() // want `invariant unlocked-early: locks.evalMu is not held here`
}

func unlockedBeforeReturn() int {
	evalMu.Lock()
	x := work()
	evalMu.Unlock()
	return x // want `invariant unlocked-before-return: locks.evalMu is not held here`
}

func guardClause(p *int) {
	if p == nil { // want `invariant guard-clause: locks.evalMu is not held here`
		return
	}
	evalMu.Lock()
	defer evalMu.Unlock()
	*p = work()
}

func uncalledLiteral() { // want `invariant uncalled-literal: .*never acquires it`
	f := func() { evalMu.Lock() }
	_ = f
	work()
}

func (r *registry) wrongMode(k string) int {
	r.mu.Lock() // want `invariant wrong-mode: \(locks.registry\).mu is not held in shared mode here; \(\*locks.registry\).wrongMode must hold it from before its first statement that does work to every return, and takes it in the other mode`
	defer r.mu.Unlock()
	return r.m[k]
}

func (r *registry) otherInstance(o *registry, k string) int { // want `invariant other-instance: .*never acquires it`
	o.mu.RLock()
	defer o.mu.RUnlock()
	return r.m[k]
}

func constFalseLock() { // want `invariant const-false-lock: .*never acquires it`
	if debug {
		evalMu.Lock()
		defer evalMu.Unlock()
	}
	work()
}

func lineComment() { // want `invariant line-comment: .*never acquires it`
	// evalMu.Lock()
	// defer evalMu.Unlock()
	work()
}

func blockComment() { // want `invariant block-comment: .*never acquires it`
	/*
		evalMu.Lock()
		defer evalMu.Unlock()
	*/
	work()
}

func inString() { // want `invariant in-string: .*never acquires it`
	_ = "evalMu.Lock()"
	work()
}

func afterReturn() { // want `invariant after-return: .*never acquires it`
	return
	evalMu.Lock()
	defer evalMu.Unlock()
}

func nestedScope() {
	func() {
		evalMu.Lock()
		defer evalMu.Unlock()
	}()
	work() // want `invariant nested-scope: locks.evalMu is not held here`
}

// nestedScopeWork does its work under the lock, but the lock is released
// before the function returns: hold asks for Lock and a deferred Unlock of
// the function itself, so that a panic in the work cannot leave it taken
// and the return does not run unlocked.
func nestedScopeWork() {
	func() {
		evalMu.Lock()
		defer evalMu.Unlock()
		work()
	}()
} // want `invariant nested-scope-work: locks.evalMu is not held here`
