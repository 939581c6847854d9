package enc

import (
	"fmt"
	"log"
	"os"
	"runner"
	"sync"
)

type Encoder struct{ refs int }

func (e *Encoder) retain()  { e.refs++ }
func (e *Encoder) release() { e.refs-- }

func (e *Encoder) tryRetain() bool { e.refs++; return true }

type Buffer struct{}

func (b *Buffer) retain() {}

// Wrapped embeds an encoder: wrapped.retain() calls (*Encoder).retain.
type Wrapped struct{ *Encoder }

const debug = false

func retainHelper(e *Encoder) { e.retain() }

func runNow(f func()) { f() }

func runMaybe(f func(), ok bool) {
	if ok {
		f()
	}
}

// --- equivalent shapes: silent ---

func good(e *Encoder) { e.retain() }

func goodClosure(e *Encoder) {
	func() { e.retain() }()
}

func goodBound(e *Encoder) {
	keep := func() { e.retain() }
	keep()
}

func goodRunner(e *Encoder) {
	runNow(func() { e.retain() })
}

func goodDeferred(e *Encoder) {
	defer e.retain()
}

func goodEmbedded(w Wrapped) { w.retain() }

func goodVia(e *Encoder) { retainHelper(e) }

func goodConstTrue(e *Encoder) {
	if !debug {
		e.retain()
	}
}

// --- reverts: each fires ---

func deleted(e *Encoder) { // want `invariant deleted: enc.deleted must call \(\*enc.Encoder\).retain, and contains no live call of it \(why: w\)`
	_ = e
}

func lineComment(e *Encoder) { // want `invariant line-comment: .* contains no live call`
	// e.retain()
	_ = e
}

func blockComment(e *Encoder) { // want `invariant block-comment: .* contains no live call`
	/*
		e.retain()
	*/
	_ = e
}

func ifFalse(e *Encoder) {
	if false {
		e.retain() // want `invariant if-false: enc.ifFalse must call \(\*enc.Encoder\).retain; this call does not count: it is in a branch that a constant condition disables`
	}
}

func constFlag(e *Encoder) {
	if debug {
		e.retain() // want `invariant const-flag: .*constant condition disables`
	}
}

func constTrueElse(e *Encoder) {
	if !debug {
		return
	} else {
		e.retain() // want `invariant const-true-else: .*constant condition disables`
	}
}

func afterReturn(e *Encoder) {
	return
	e.retain() // want `invariant after-return: .*it is after a terminating statement`
}

func afterPanic(e *Encoder) {
	panic("unreachable")
	e.retain() // want `invariant after-panic: .*it is after a terminating statement`
}

func moved(e *Encoder) { // want `invariant moved: enc.moved must call`
	_ = e
}

func movedHere(e *Encoder) { e.retain() }

func uncalledLiteral(e *Encoder) {
	f := func() {
		e.retain() // want `invariant uncalled-literal: .*it is in a function literal that is never called`
	}
	_ = f
}

func goLiteral(e *Encoder) {
	go func() {
		e.retain() // want `invariant go-literal: .*in a go statement`
	}()
}

func storedLiteral(e *Encoder) {
	runMaybe(func() {
		e.retain() // want `invariant stored-literal: .*passed to runMaybe, which cannot be shown to call it`
	}, true)
}

func methodValue(e *Encoder) {
	f := e.retain // want `invariant method-value: .*a function or method value that is never called here`
	_ = f
}

func otherReceiver(e *Encoder, b *Buffer) { // want `invariant other-receiver: .*the call of \(\*enc.Buffer\).retain at line \d+ has the same name but is another function`
	b.retain()
}

func inString(e *Encoder) { // want `invariant in-string: .*contains no live call`
	fmt.Println("e.retain()")
}

func shortCircuit(e *Encoder, ok bool) {
	_ = ok && e.tryRetain()
} // want `invariant short-circuit: enc.shortCircuit must call \(\*enc.Encoder\).tryRetain on every path`

func everyPathGood(e *Encoder, ok bool) {
	defer e.release()
	if ok {
		return
	}
}

func everyPathBranch(e *Encoder, ok bool) {
	if ok {
		e.release()
	}
} // want `invariant every-path-branch: enc.everyPathBranch must call \(\*enc.Encoder\).release on every path, but the end of its body is reached without the call`

func everyPathEarlyReturn(e *Encoder, ok bool) {
	if ok {
		return // want `invariant every-path-early-return: .* \(why: w; see https://example.com/adr/3\)`
	}
	e.release()
}

func andFalse(e *Encoder, ok bool) {
	if ok && debug {
		e.retain() // want `invariant and-false: .*constant condition disables`
	}
}

func switchFalse(e *Encoder) {
	switch {
	case debug:
		e.retain() // want `invariant switch-false: .*constant condition disables`
	}
}

func afterExit(e *Encoder) {
	os.Exit(1)
	e.retain() // want `invariant after-exit: .*after a terminating statement`
}

func afterFatal(e *Encoder) {
	log.Fatalf("no encoder")
	e.retain() // want `invariant after-fatal: .*after a terminating statement`
}

func afterSelect(e *Encoder) {
	select {}
	e.retain() // want `invariant after-select: .*after a terminating statement`
}

func afterLoop(e *Encoder) {
	for {
	}
	e.retain() // want `invariant after-loop: .*after a terminating statement`
}

func afterGoto(e *Encoder) {
	goto end
	e.retain() // want `invariant after-goto: .*after a terminating statement`
end:
}

func taggedSwitch(e *Encoder, on bool) {
	switch on {
	case false: // a value compared with the tag, not a constant condition
		e.retain()
	}
}

// die always panics: calls after it never run.
func die(msg string) {
	panic(msg)
}

// fatalf always exits, through a function of another package that never
// returns.
func fatalf(format string, args ...any) {
	log.Printf(format, args...)
	os.Exit(2)
}

// maybeDie panics only sometimes: calls after it run.
func maybeDie(ok bool) {
	if !ok {
		panic("not ok")
	}
}

func afterDie(e *Encoder) {
	die("reverted")
	e.retain() // want `invariant after-helper-that-panics: .*after a terminating statement`
}

func afterFatalf(e *Encoder) {
	fatalf("no encoder")
	e.retain() // want `invariant after-helper-that-exits: .*after a terminating statement`
}

func beforeMaybeDie(e *Encoder, ok bool) {
	maybeDie(ok)
	e.retain()
}

// boundMethodValue calls retain through a method value bound to a local.
func boundMethodValue(e *Encoder) {
	r := e.retain
	r()
}

// boundFunctionValue calls a function through a function value bound to
// a local.
func boundFunctionValue() {
	f := retainAll
	f()
}

func retainAll() {}

// onceDo retains in a closure sync.Once.Do runs.
func onceDo(e *Encoder, once *sync.Once) {
	once.Do(func() { e.retain() })
}

// otherPackageRunner retains in a closure a function of another package
// runs on every path (its fact).
func otherPackageRunner(e *Encoder) {
	runner.Do(func() { e.retain() })
}

// otherPackageMaybe hands the closure to a function that runs it only
// sometimes.
func otherPackageMaybe(e *Encoder, ok bool) {
	runner.Maybe(ok, func() {
		e.retain() // want `invariant other-package-maybe: .*passed to Maybe, which cannot be shown to call it`
	})
}

// declaredRunner hands the closure to a runner the invariants file
// declares.
func declaredRunner(e *Encoder) {
	runner.Pool(func() { e.retain() })
}

// boundButNotCalled binds the method value and never calls it.
func boundButNotCalled(e *Encoder) {
	r := e.retain // want `invariant bound-not-called: .*a function or method value that is never called here`
	_ = r
}
