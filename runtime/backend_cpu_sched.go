package runtime

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// cpuSchedBackend is the CPU backend of a device opened with
// testhooks.AdversarialLanes on: the memory, events and kernels of
// cpuBackend, with lanes run by cpuSched instead of goroutines. It is a
// type of its own, so that the goroutine lanes stay exactly as they are.
type cpuSchedBackend struct {
	*cpuBackend
	sched cpuSched
}

// newCPUSchedBackend returns CPU device ordinal with adversarial lanes.
func newCPUSchedBackend(ordinal, limit int) *cpuSchedBackend {
	return &cpuSchedBackend{cpuBackend: newCPUBackend(ordinal, limit), sched: cpuSched{lanes: map[lane]*schedLane{}, next: 1}}
}

// cpuSched runs the lanes of a cpuSchedBackend. Its lanes have no
// goroutines: queued work
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
	seq   uint64 // stamps of queued work, increasing
	next  lane   // the next lane handle
	lanes map[lane]*schedLane
	order []*schedLane // in creation order, so that ties break the same way every run
}

// schedLane is one adversarial lane: its queue, whether it was destroyed,
// and the stamp of the most recent work queued on it. Guarded by
// cpuSched.mu.
type schedLane struct {
	items    []cpuItem
	closed   bool
	lastWork uint64
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

// lane resolves a lane handle; s.mu is held.
func (s *cpuSched) laneLocked(h lane) (*schedLane, error) {
	l, ok := s.lanes[h]
	if !ok {
		return nil, fmt.Errorf("cpu lane %d: %w: unknown lane", h, ErrInvalidArgument)
	}
	return l, nil
}

// pushLocked queues it on lane h; work marks the lane as holding the most
// recently queued work. s.mu is held.
func (s *cpuSched) pushLocked(h lane, it cpuItem, work bool) error {
	l, err := s.laneLocked(h)
	if err != nil {
		return err
	}
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

// queue queues work on lane h. Callers write the item's task as a
// function literal in the cpuItem they pass, so that the invariants on
// what lane tasks may lock (stored_in (cpuItem).run) read its body.
func (s *cpuSched) queue(h lane, it cpuItem) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushLocked(h, it, true)
}

// newLane implements backend.
func (b *cpuSchedBackend) newLane() (lane, error) {
	s := &b.sched
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.next
	s.next++
	l := &schedLane{}
	s.lanes[h] = l
	s.order = append(s.order, l)
	return h, nil
}

// destroyLane implements backend: it refuses further work on the lane,
// runs work until the lane's queue is empty and forgets the lane.
func (b *cpuSchedBackend) destroyLane(h lane) error {
	s := &b.sched
	s.mu.Lock()
	l, err := s.laneLocked(h)
	if err == nil {
		l.closed = true
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	// A lane that can never drain was deadlocked by its user; it is
	// forgotten with its work, as a destroyed CUDA stream's would be.
	derr := s.runUntil(func() bool { return len(l.items) == 0 })
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.lanes, h)
	s.order = slices.DeleteFunc(s.order, func(x *schedLane) bool { return x == l })
	return derr
}

// describe implements backend.
func (b *cpuSchedBackend) describe() string {
	return fmt.Sprintf("cpu:%d (adversarial lanes)", b.ordinal)
}

// copyAsync implements backend.
func (b *cpuSchedBackend) copyAsync(l lane, dst, src mem, bytes int) error {
	d, s, err := b.copyOperands(dst, src)
	if err != nil {
		return err
	}
	n := bytes / 4
	return b.sched.queue(l, cpuItem{run: func() { copyWords(d, s, n) }})
}

// launch implements backend. Adversarial lanes already run a producer as
// late as the events allow; a slow copy's delay would only slow the tests
// down, so it is dropped.
func (b *cpuSchedBackend) launch(l lane, op *launch) error {
	o := *op
	o.delay = 0
	out, in, err := b.kernelOperands(&o)
	if err != nil {
		return err
	}
	return b.sched.queue(l, cpuItem{run: func() { runCPUKernel(&o, out, in) }})
}

// launchFused implements backend.
func (b *cpuSchedBackend) launchFused(l lane, p *fusedProgram, bufs []mem, n int) error {
	words, err := b.fusedOperands(bufs)
	if err != nil {
		return err
	}
	prog := *p
	return b.sched.queue(l, cpuItem{run: func() { prog.runCPU(words, n) }})
}

// record implements backend: it replaces the event's signal with one that
// the lane closes when it reaches this point. Setting the signal and
// queueing its close happen under s.mu, so that no wait can capture a
// signal whose close is not queued yet.
func (b *cpuSchedBackend) record(h event, l lane) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	s := &b.sched
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

// wait implements backend: the lane waits for the event's current signal,
// captured now, as cuStreamWaitEvent does.
func (b *cpuSchedBackend) wait(l lane, h event) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	s := &b.sched
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

// syncEvent implements backend: it runs work until the event's signal is
// closed.
func (b *cpuSchedBackend) syncEvent(h event) error {
	e, err := b.event(h)
	if err != nil {
		return err
	}
	e.mu.Lock()
	ch := e.cur
	e.mu.Unlock()
	if ch == nil {
		return nil
	}
	return b.sched.runUntil(func() bool { return closed(ch) })
}

// syncLane implements backend: it queues a signal on the lane and runs
// work until it is reached.
func (b *cpuSchedBackend) syncLane(l lane) error {
	ch := make(chan struct{})
	s := &b.sched
	s.mu.Lock()
	err := s.pushLocked(l, cpuItem{run: func() { close(ch) }}, false)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.runUntil(func() bool { return closed(ch) })
}

// close implements backend: it runs every lane's remaining work, then
// closes the memory.
func (b *cpuSchedBackend) close() error {
	s := &b.sched
	err := s.runUntil(func() bool {
		for _, l := range s.order {
			if len(l.items) > 0 {
				return false
			}
		}
		return true
	})
	s.mu.Lock()
	s.lanes, s.order = map[lane]*schedLane{}, nil
	s.mu.Unlock()
	return errors.Join(err, b.cpuBackend.close())
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
func (s *cpuSched) pickLocked() *schedLane {
	var best *schedLane
	for _, l := range s.order {
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
func (s *cpuSched) runLaneLocked(l *schedLane) {
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
