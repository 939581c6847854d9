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

// lineCount is the commonest shape in real code: the lock released right
// before a return of locals.
func (r *registry) lineCount() int {
	r.mu.Lock()
	n := len(r.m)
	r.mu.Unlock()
	return n
}

// unlockEachReturn releases the lock before each return, once no work
// remains.
func (r *registry) unlockEachReturn(k string) (int, bool) {
	r.mu.Lock()
	v, ok := r.m[k]
	if !ok {
		r.mu.Unlock()
		return 0, false
	}
	r.m[k] = v + 1
	r.mu.Unlock()
	return v, true
}

// unlockLast releases the lock as its last statement.
func unlockLast() {
	evalMu.Lock()
	work()
	evalMu.Unlock()
}

// guardClause checks its parameters before the lock: no work.
func guardClause(p *int, n int) {
	if p == nil || n < 0 {
		return
	}
	evalMu.Lock()
	defer evalMu.Unlock()
	*p = work() + n
}

// guardPanic panics on a bad argument before the lock: no work either.
func guardPanic(n int) {
	if n < 0 {
		panic("negative")
	}
	evalMu.Lock()
	defer evalMu.Unlock()
	use(n)
}

// conn locks a field whose type embeds the mutex, named as the field.
type conn struct {
	out halfConn
}

type halfConn struct {
	sync.Mutex
	seq int
}

func (c *conn) write() {
	c.out.Lock()
	defer c.out.Unlock()
	c.out.seq++
}

// methodValue locks through a method value bound to a local.
func methodValue() {
	lock, unlock := evalMu.Lock, evalMu.Unlock
	lock()
	defer unlock()
	work()
}

// locker locks through a sync.Locker whose lock is known.
func locker() {
	var l sync.Locker = &evalMu
	l.Lock()
	defer l.Unlock()
	work()
}

// deferredAfterUnlock's deferred use runs after the unlock, with what its
// defer statement computed under the lock: the statement is the work.
func deferredAfterUnlock() {
	evalMu.Lock()
	defer use(work())
	defer evalMu.Unlock()
	work()
}

// deferredBeforeUnlock defers a call after the deferred unlock: it runs
// first, under the lock.
func deferredBeforeUnlock() {
	evalMu.Lock()
	defer evalMu.Unlock()
	defer flush()
	work()
}

// --- reverts: each fires ---

func deleted() { // want `invariant deleted: locks.deleted must hold locks.evalMu \(exclusive\) at every statement that does work, and never acquires it \(why: w\)`
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
} // want `invariant defer-lock: locks.evalMu is still held when locks.deferLock returns at the end of its body: every later acquisition of it blocks`

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
	if ok {
		evalMu.Lock()
		defer evalMu.Unlock()
	}
	work() // want `invariant one-branch: locks.evalMu is not held here`
}

func unlockedEarly() {
	evalMu.Lock()
	work()
	evalMu.Unlock()
	work() // want `invariant unlocked-early: locks.evalMu is not held here`
}

func (r *registry) unlockedBeforeReturn() int {
	r.mu.Lock()
	n := len(r.m)
	r.mu.Unlock()
	return n + len(r.m) // want `invariant unlocked-before-return: \(locks.registry\).mu is not held here`
}

func guardClauseThatReads(p *int) {
	if *p == 0 { // want `invariant guard-clause-reads: locks.evalMu is not held here`
		return
	}
	evalMu.Lock()
	defer evalMu.Unlock()
	*p = work()
}

func relockDeferred() {
	evalMu.Lock()
	defer evalMu.Lock() // want `invariant relock-deferred: locks.evalMu is already held here: locking it again deadlocks`
	work()
}

func relock() {
	evalMu.Lock()
	defer evalMu.Unlock()
	work()
	evalMu.Lock() // want `invariant relock: locks.evalMu is already held here: locking it again deadlocks`
}

func deferArgumentsUnheld() {
	defer use(work()) // want `invariant defer-arguments-unheld: locks.evalMu is not held here`
	evalMu.Lock()
	defer evalMu.Unlock()
	work()
}

func flush() {}

func uncalledLiteral() { // want `invariant uncalled-literal: .*never acquires it`
	f := func() { evalMu.Lock() }
	_ = f
	work()
}

func (r *registry) wrongMode(k string) int {
	r.mu.Lock() // want `invariant wrong-mode: \(locks.registry\).mu is not held in shared mode here; \(\*locks.registry\).wrongMode must hold it at every statement that does work, and takes it in the other mode`
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

// nestedScopeWork does all its work under the lock, in a literal it runs
// in place: the lock is held at every statement that does work.
func nestedScopeWork() {
	func() {
		evalMu.Lock()
		defer evalMu.Unlock()
		work()
	}()
}

func (r *registry) relockRead(k string) int {
	r.mu.RLock()
	defer r.mu.RLock() // want `invariant relock-read: \(locks.registry\).mu is already held here: locking it again deadlocks`
	return r.m[k]
}
