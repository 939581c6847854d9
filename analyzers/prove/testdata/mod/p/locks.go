package p

import "sync"

// wait blocks until every queued task has run: no lock may be held
// around it, since the tasks take them.
func wait() {}

// Drain waits after giving the eval lock up.
func Drain() {
	evalMu.Lock()
	evalMu.Unlock()
	wait()
}

// queue holds tasks; its lock comes after evalMu.
type queue struct {
	mu    sync.Mutex
	tasks []func()
}

func (q *queue) push(f func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tasks = append(q.tasks, f)
}

// onDone runs when a task completes.
func onDone() {}

// Submit queues a task that takes no lock.
func Submit(q *queue) {
	q.push(func() { onDone() })
}

// Stats counts submissions from every goroutine.
type Stats struct {
	mu sync.Mutex
	n  int
}

// Record counts one submission.
func (s *Stats) Record() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
}
