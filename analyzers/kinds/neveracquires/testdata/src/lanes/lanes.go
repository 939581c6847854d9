// Package lanes runs tasks on worker goroutines while evaluations wait
// for them under evalMu.
package lanes

import (
	"io"
	"sort"
	"sync"
	"sync/atomic"
)

var (
	evalMu sync.Mutex
	// Mu is exported: handlers of other packages must not take it.
	Mu sync.Mutex
)

var done atomic.Int32

// lane runs queued tasks in order.
type lane struct{ q chan func() }

func (l *lane) enqueue(f func()) { l.q <- f }

// onComplete is a completion handler: it only counts.
func onComplete() { done.Add(1) }

// kernel runs on the lane.
func kernel(out []float32) {
	for i := range out {
		out[i]++
	}
}

// backend is implemented by this package's types only: its method name is
// not exported, so its calls are followed to them.
type backend interface{ record() }

type cpu struct{ n int }

func (c *cpu) record() { c.n++ }

// onError is a completion handler that reports through the backend.
func onError(b backend) { b.record() }

// Eval waits for its tasks under the lock.
func Eval(l *lane, out []float32, ch chan struct{}) {
	evalMu.Lock()
	defer evalMu.Unlock()
	l.enqueue(func() { close(ch) })
	l.enqueue(func() { kernel(out) })
	l.enqueue(onComplete)
	<-ch
}

// Flush takes Mu.
func Flush() {
	Mu.Lock()
	defer Mu.Unlock()
}

// drain frees under the lock: never from a task.
func drain() {
	evalMu.Lock()
	defer evalMu.Unlock()
}

// Reverts.

// TaskTakesLock queues a task that takes evalMu itself.
func TaskTakesLock(l *lane) {
	l.enqueue(func() {
		evalMu.Lock() // want `invariant tasks-never-take-evalMu: the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskTakesLock must never take lanes.evalMu, and takes it here \(why: Eval waits`
		evalMu.Unlock()
	})
}

// TaskDrains queues a task that reaches the lock through a call.
func TaskDrains(l *lane) {
	l.enqueue(func() {
		drain() // want `the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskDrains must never take lanes.evalMu, and lanes.drain takes it at lanes.go:64: the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskDrains → lanes.drain`
	})
}

// TaskIsDrain queues the locking function itself.
func TaskIsDrain(l *lane) {
	l.enqueue(drain) // want `lanes.drain must never take lanes.evalMu, and lanes.drain takes it at lanes.go:64: lanes.drain`
}

// TaskSorts takes the lock in a comparison that sort.Slice may call.
func TaskSorts(l *lane, s []int) {
	l.enqueue(func() {
		sort.Slice(s, func(i, j int) bool {
			evalMu.Lock() // want `the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskSorts must never take lanes.evalMu, and takes it here \(in a function literal handed to a call that may run it\)`
			defer evalMu.Unlock()
			return s[i] < s[j]
		})
	})
}

type handler struct{ cb func() }

// TaskCallsValue queues a task that calls a function value: what it runs
// cannot be followed.
func TaskCallsValue(l *lane, h *handler) {
	l.enqueue(func() {
		h.cb() // want `cannot verify: the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskCallsValue must never take lanes.evalMu, and the function literal handed to \(\*lanes.lane\).enqueue in lanes.TaskCallsValue makes a call of the function value h.cb at lanes.go:107, which cannot be followed`
	})
}

// TaskWrites queues a task that calls an exported interface method.
func TaskWrites(l *lane, w io.Writer) {
	l.enqueue(func() {
		w.Write(nil) // want `makes a call of the interface method \(io.Writer\).Write at lanes.go:114, which cannot be followed`
	})
}

// TaskOpaque queues a function it was handed: what it is cannot be known.
func TaskOpaque(l *lane, f func()) {
	l.enqueue(f) // want `cannot verify: the function handed to \(\*lanes.lane\).enqueue here, f, names no function: whether it takes lanes.evalMu cannot be verified`
}

// completion keeps the handler a lane calls when its work completes.
type completion struct{ onDone func() }

// Watch stores a handler that takes no lock, and NewCompletion one.
func Watch(c *completion) { c.onDone = func() { done.Add(1) } }

func NewCompletion() *completion { return &completion{onDone: onComplete} }

// WatchDraining stores a handler that takes evalMu through a call.
func WatchDraining(c *completion) {
	c.onDone = func() {
		drain() // want `the function literal stored in \(lanes.completion\).onDone in lanes.WatchDraining must never take lanes.evalMu, and lanes.drain takes it at lanes.go:64`
	}
}

// NewDrainingCompletion stores the locking function itself.
func NewDrainingCompletion() *completion {
	return &completion{onDone: drain} // want `lanes.drain must never take lanes.evalMu, and lanes.drain takes it at lanes.go:64`
}
