package runtime

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/guardlint/guardlint/internal/testhooks"
)

// laneSet is the expensive part of an encoder: its lanes and one event per
// lane for barriers.
type laneSet struct {
	lanes  []lane
	events []event
}

// Encoder spreads dispatches over the lanes of a lane set, round-robin
// unless a lane is chosen. Encoders are pooled per device: the pool hands
// one out at +0 and takes it back at its next drain unless it is retained,
// and a taken-back encoder is recycled for the next request and bound to
// another lane set. A command buffer that uses an encoder it did not retain
// can therefore find it rebound to other lanes mid-way, after which its
// Barrier no longer orders the work already dispatched.
//
// The lane cursor and the dirty lanes are plain fields: only the command
// buffer that holds the encoder (retained, as the active encoder) touches
// them, from the one goroutine that uses the command buffer, and the pool
// sets them in get under its mutex before it hands the encoder out, which
// orders them before the holder's first use; the holder's last use is
// ordered before the next get by the same mutex (release, then drain).
// An atomic read-modify-write per dispatch bought nothing.
type Encoder struct {
	dev    *Device
	refs   atomic.Int32
	set    atomic.Pointer[laneSet]
	cursor uint32 // the next round-robin lane
	dirty  uint32 // lanes dispatched on since the last barrier, one bit each
}

// retain takes a reference, keeping the encoder out of the pool's next
// drain.
func (e *Encoder) retain() {
	if testhooks.RetainSkipped() {
		return
	}
	e.refs.Add(1)
}

// release drops a reference taken by retain.
func (e *Encoder) release() { e.refs.Add(-1) }

// Lanes returns the number of lanes.
func (e *Encoder) Lanes() int { return len(e.set.Load().lanes) }

// pick returns lane i, or the next lane round-robin when i < 0.
func (e *Encoder) pick(i int) lane {
	lanes := e.set.Load().lanes
	if i < 0 {
		i = int(e.cursor % uint32(len(lanes)))
		e.cursor++
	}
	i %= len(lanes)
	e.dirty |= 1 << i
	return lanes[i]
}

// next advances the round-robin cursor and returns the lane it was at, as
// pick does for a dispatch.
func (e *Encoder) next() int {
	i := int(e.cursor % uint32(len(e.set.Load().lanes)))
	e.cursor++
	return i
}

// Barrier orders every lane after every dispatch made on any lane before
// it: it records an event on every lane and makes every lane wait on the
// events of all the others.
func (e *Encoder) Barrier() error {
	if testhooks.BarrierDisabled() {
		return nil
	}
	set := e.set.Load()
	b := e.dev.backend
	for i, l := range set.lanes {
		if err := b.record(set.events[i], l); err != nil {
			return fmt.Errorf("barrier: record on lane %d: %w", i, err)
		}
	}
	for j, l := range set.lanes {
		for i, ev := range set.events {
			if i == j {
				continue // a lane is already ordered after its own work
			}
			if err := b.wait(l, ev); err != nil {
				return fmt.Errorf("barrier: lane %d waits on lane %d: %w", j, i, err)
			}
		}
	}
	e.dirty = 0
	return nil
}

// end records the completion of everything dispatched so far and returns
// the lanes it recorded on, one bit each: done[i] on every lane i used
// since the last barrier, or on lane 0 alone when none was, since at the
// barrier lane 0 waited for the work of every lane. done has one event
// per lane of the set; a shorter one is an error.
func (e *Encoder) end(done []event) (uint32, error) {
	set := e.set.Load()
	if len(done) < len(set.lanes) {
		return 0, fmt.Errorf("end encoder: room for %d lanes, the encoder has %d", len(done), len(set.lanes))
	}
	mask := e.dirty
	if mask == 0 {
		mask = 1
	}
	for i, l := range set.lanes {
		if mask&(1<<i) == 0 {
			continue
		}
		if err := e.dev.backend.record(done[i], l); err != nil {
			return 0, fmt.Errorf("end encoder: record completion on lane %d: %w", i, err)
		}
	}
	return mask, nil
}

// encoderPool owns a device's lane sets and encoders.
type encoderPool struct {
	dev     *Device
	lanes   int // lanes per set
	maxSets int

	mu      sync.Mutex
	sets    []*laneSet
	nextSet int
	free    []*Encoder // taken back, oldest first
	out     []*Encoder // handed out and not yet taken back
}

// poolSets is how many lane sets a device creates at most; lanes are
// therefore O(devices), whatever the number of goroutines or streams.
const poolSets = 4

// newEncoderPool returns an empty pool for d with the given lanes per set.
func newEncoderPool(d *Device, lanes int) *encoderPool {
	return &encoderPool{dev: d, lanes: lanes, maxSets: poolSets}
}

// get hands out an encoder at +0, bound to the next lane set in rotation.
// A recycled encoder is preferred to a new one.
func (p *encoderPool) get() (*Encoder, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	set, err := p.rotate()
	if err != nil {
		return nil, err
	}
	var e *Encoder
	if len(p.free) > 0 {
		// Oldest first; shift in place rather than reslicing so that the
		// backing array is reused.
		e = p.free[0]
		n := copy(p.free, p.free[1:])
		p.free[n] = nil
		p.free = p.free[:n]
	} else {
		e = &Encoder{dev: p.dev}
	}
	e.refs.Store(0)
	e.cursor, e.dirty = 0, 0
	e.set.Store(set)
	p.out = append(p.out, e)
	return e, nil
}

// rotate returns the next lane set, creating sets up to maxSets. p.mu is
// held.
func (p *encoderPool) rotate() (*laneSet, error) {
	if len(p.sets) < p.maxSets {
		set, err := p.newSet()
		if err != nil {
			return nil, err
		}
		p.sets = append(p.sets, set)
	}
	set := p.sets[p.nextSet%len(p.sets)]
	p.nextSet++
	return set, nil
}

// newSet creates a lane set: its lanes and one barrier event per lane.
func (p *encoderPool) newSet() (*laneSet, error) {
	b := p.dev.backend
	set := &laneSet{}
	for i := 0; i < p.lanes; i++ {
		l, err := b.newLane()
		if err != nil {
			return nil, fmt.Errorf("create lane: %w", err)
		}
		set.lanes = append(set.lanes, l)
		ev, err := b.newEvent()
		if err != nil {
			return nil, fmt.Errorf("create event: %w", err)
		}
		set.events = append(set.events, ev)
	}
	return set, nil
}

// drain takes back every handed-out encoder whose count allows it.
func (p *encoderPool) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	keep := p.out[:0]
	for _, e := range p.out {
		if e.refs.Load() > 0 {
			keep = append(keep, e)
		} else {
			p.free = append(p.free, e)
		}
	}
	clear(p.out[len(keep):])
	p.out = keep
}

// syncAll waits for all work on every lane.
func (p *encoderPool) syncAll() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, s := range p.sets {
		for _, l := range s.lanes {
			errs = append(errs, p.dev.backend.syncLane(l))
		}
	}
	return errors.Join(errs...)
}

// destroy waits for and destroys every lane and event.
func (p *encoderPool) destroy() error {
	err := p.syncAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	errs := []error{err}
	for _, s := range p.sets {
		for i := range s.lanes {
			errs = append(errs, p.dev.backend.destroyEvent(s.events[i]), p.dev.backend.destroyLane(s.lanes[i]))
		}
	}
	p.sets = nil
	return errors.Join(errs...)
}

// counts returns the number of lanes and encoders created, and the number
// of encoders handed out and not taken back.
func (p *encoderPool) counts() (lanes, encoders, outstanding int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sets) * p.lanes, len(p.free) + len(p.out), len(p.out)
}
