package runtime

import (
	"errors"
	"fmt"
	"sync"
)

// cpuSched runs the lanes of a CPU device opened with
// testhooks.AdversarialLanes on. Its lanes have no goroutines: queued work
// waits until a host goroutine blocks on some of it (syncEvent, syncLane,
// destroying a lane), and that goroutine then runs the queued work itself,
// one lane at a time, until what it waits for is done.
//
// The order is chosen to expose missing ordering, deterministically: of
// the lanes whose next item can run, the one holding the most recently
// queued work (a kernel or a copy) runs first, until it is empty or meets
// a wait on an event not yet reached. Work queued later is typically the
// reader of work queued earlier, so a reader that no event orders after
// its writer runs before the writer, every time, whatever the machine's
// load; a reader that an event orders blocks on that wait, the writer's
// lane runs, and the result is exact. On goroutine lanes the same hazard
// shows only when the scheduler happens to run the reader first, which a
// loaded machine makes unlikely.
//
// All queued work runs under mu, so the order of everything that touches
// device memory is the one chosen here; with several host goroutines
// waiting, whichever holds mu runs work for all of them.
type cpuSched struct {
	mu    sync.Mutex
	seq   uint64     // stamps of queued work, increasing
	lanes []*cpuLane // in creation order, so that ties break the same way every run
}

// cpuItem is one piece of queued lane work: run it, or, for a wait, pass
// only once the signal is closed.
type cpuItem struct {
	run  func()
	wait chan struct{}
}

// errLanesDeadlocked reports a host wait that no queued work can satisfy:
// every lane is empty or blocked on an event no lane can reach. A GPU
// would hang; the adversarial CPU lanes say so instead.
var errLanesDeadlocked = errors.New("runtime: cpu lanes deadlocked: the host waits for work that no lane can reach")

// addLane registers a new lane.
func (s *cpuSched) addLane(l *cpuLane) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lanes = append(s.lanes, l)
}

// pushLocked queues it on l; work marks l as holding the most recently
// queued work. s.mu is held.
func (s *cpuSched) pushLocked(l *cpuLane, it cpuItem, work bool) error {
	if l.closed {
		return fmt.Errorf("cpu lane: %w: lane destroyed", ErrInvalidArgument)
	}
	l.items = append(l.items, it)
	if work {
		s.seq++
		l.lastWork = s.seq
	}
	return nil
}

// push queues work on l.
func (s *cpuSched) push(l *cpuLane, f func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushLocked(l, cpuItem{run: f}, true)
}

// record replaces e's signal with one that l closes when it reaches this
// point. Setting the signal and queueing its close happen under s.mu, so
// that no wait can capture a signal whose close is not queued yet.
func (s *cpuSched) record(e *cpuEvent, l *cpuLane) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	if err := s.pushLocked(l, cpuItem{run: func() { close(ch) }}, false); err != nil {
		return err
	}
	e.mu.Lock()
	e.cur = ch
	e.mu.Unlock()
	return nil
}

// wait makes l wait for e's current signal.
func (s *cpuSched) wait(l *cpuLane, e *cpuEvent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.mu.Lock()
	ch := e.cur
	e.mu.Unlock()
	if ch == nil {
		return nil
	}
	return s.pushLocked(l, cpuItem{wait: ch}, false)
}

// syncLane queues a signal on l and runs work until it is reached.
func (s *cpuSched) syncLane(l *cpuLane) error {
	ch := make(chan struct{})
	s.mu.Lock()
	err := s.pushLocked(l, cpuItem{run: func() { close(ch) }}, false)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.runUntil(func() bool { return closed(ch) })
}

// await runs work until ch is closed.
func (s *cpuSched) await(ch chan struct{}) error {
	return s.runUntil(func() bool { return closed(ch) })
}

// stop refuses further work on l, runs work until l's queue is empty and
// forgets l.
func (s *cpuSched) stop(l *cpuLane) {
	s.mu.Lock()
	l.closed = true
	s.mu.Unlock()
	// A lane that can never drain was deadlocked by its user; it is
	// forgotten with its work, as a destroyed CUDA stream's would be.
	_ = s.runUntil(func() bool { return len(l.items) == 0 })
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.lanes {
		if x == l {
			s.lanes = append(s.lanes[:i], s.lanes[i+1:]...)
			break
		}
	}
	l.items = nil
}

// runUntil runs queued work, one lane at a time in the adversarial order,
// until done holds. done is evaluated under s.mu.
func (s *cpuSched) runUntil(done func() bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !done() {
		l := s.pickLocked()
		if l == nil {
			return errLanesDeadlocked
		}
		s.runLaneLocked(l)
	}
	return nil
}

// pickLocked returns the lane that runs next: of the lanes whose next item
// can run, the one holding the most recently queued work; nil when none
// can run. s.mu is held.
func (s *cpuSched) pickLocked() *cpuLane {
	var best *cpuLane
	for _, l := range s.lanes {
		if len(l.items) == 0 || !l.items[0].ready() {
			continue
		}
		if best == nil || l.lastWork > best.lastWork {
			best = l
		}
	}
	return best
}

// runLaneLocked runs l's items until it is empty or its next item waits
// for a signal not yet closed. s.mu is held.
func (s *cpuSched) runLaneLocked(l *cpuLane) {
	for len(l.items) > 0 && l.items[0].ready() {
		it := l.items[0]
		l.items[0] = cpuItem{}
		l.items = l.items[1:]
		if it.run != nil {
			it.run()
		}
	}
}

// ready reports whether the item can run now.
func (it cpuItem) ready() bool { return it.wait == nil || closed(it.wait) }

// closed reports whether ch is closed; ch is only ever closed, never sent
// on.
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
