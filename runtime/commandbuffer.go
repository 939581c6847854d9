package runtime

import (
	"errors"
	"fmt"
	"time"
)

// CommandBuffer records dispatches on an encoder and tracks their
// completion. It keeps every buffer it dispatched on reachable, and the
// memory of a buffer freed meanwhile allocated, until Wait has seen the
// work complete. A CommandBuffer is used by one goroutine at a time.
type CommandBuffer struct {
	dev    *Device
	active *Encoder
	done   []event // completion events, one per lane
	marked uint32  // the completion events recorded by the last commit
	lane   int     // lane for the next dispatches, or -1 for round-robin

	op launch // the launch being issued; kept here so it is not allocated per dispatch
	// The fused program being issued and its buffers, likewise.
	prog      fusedProgram
	fusedBufs [maxFusedBuffers]*Buffer
	fusedMems [maxFusedBuffers]mem
	pending   bool
	keep      []*Buffer // dispatched on, one use each, released at completion
	temps     []*Buffer // scratch memory, freed at completion
	err       error
}

// NewCommandBuffer returns an empty command buffer on d.
func (d *Device) NewCommandBuffer() (*CommandBuffer, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	cb := &CommandBuffer{dev: d, lane: -1}
	for i := 0; i < d.cfg.lanes; i++ {
		ev, err := d.backend.newEvent()
		if err != nil {
			return nil, fmt.Errorf("new command buffer: %w", err)
		}
		cb.done = append(cb.done, ev)
	}
	return cb, nil
}

// getOrCreateEncoder returns the active encoder, taking one from the pool
// and retaining it when there is none. The pool hands encoders out at +0:
// without the retain, the pool's next drain would take the encoder back
// and recycle it onto other lanes while this command buffer still uses it.
func (cb *CommandBuffer) getOrCreateEncoder() *Encoder {
	if cb.active != nil {
		return cb.active
	}
	enc, err := cb.dev.pool.get()
	if err != nil {
		cb.fail(fmt.Errorf("get encoder: %w", err))
		return nil
	}
	enc.retain()
	cb.active = enc
	return enc
}

// endActiveEncoder records the completion of the active encoder's work and
// releases it. It is the only place the active encoder is given up.
func (cb *CommandBuffer) endActiveEncoder() {
	if cb.active == nil {
		return
	}
	if cb.dev.check() == nil { // a closed device has no lanes left to record on
		marked, err := cb.active.end(cb.done)
		if err != nil {
			cb.fail(err)
		}
		cb.marked |= marked
	}
	cb.active.release()
	cb.active = nil
}

// reset ends the active encoder and returns to round-robin lanes; the next
// dispatch starts a new encoder.
func (cb *CommandBuffer) reset() {
	cb.endActiveEncoder()
	cb.lane = -1
}

// fail keeps the first error; later calls return it.
func (cb *CommandBuffer) fail(err error) {
	if cb.err == nil {
		cb.err = err
	}
}

// Err returns the first error the command buffer met, if any.
func (cb *CommandBuffer) Err() error { return cb.err }

// Lanes returns the number of lanes dispatches are spread over.
func (cb *CommandBuffer) Lanes() int { return cb.dev.cfg.lanes }

// UseLane sends the following dispatches to lane i; a negative i returns to
// round-robin. The choice lasts until the next Commit.
func (cb *CommandBuffer) UseLane(i int) { cb.lane = i }

// Barrier orders every later dispatch after every earlier one, on all lanes.
func (cb *CommandBuffer) Barrier() error {
	if cb.err != nil {
		return cb.err
	}
	enc := cb.getOrCreateEncoder()
	if enc == nil {
		return cb.err
	}
	if err := enc.Barrier(); err != nil {
		cb.fail(err)
	}
	return cb.err
}

// heldScan is how many of the most recently kept buffers use searches for
// the one it is given: a loop that dispatches on the same few buffers finds
// them there, and a command buffer with many distinct buffers does not
// search all of them per dispatch (a buffer kept further back is simply
// used once more).
const heldScan = 8

// use takes a use of b for the command buffer and keeps b until
// completion, once per command buffer: a buffer among the last heldScan
// kept is already held until Wait, and only its Free since then is
// checked. Without this, every dispatch took and released each operand's
// mutex twice (acquire, settle).
func (cb *CommandBuffer) use(b *Buffer) error {
	for _, k := range cb.keep[max(0, len(cb.keep)-heldScan):] {
		if k == b {
			if b.freed.Load() {
				return ErrFreed
			}
			return nil
		}
	}
	if err := b.acquire(cb.dev); err != nil {
		return err
	}
	cb.keep = append(cb.keep, b)
	return nil
}

// useAll takes a use of each buffer (use); on an error it gives back the
// uses it took, so that a failed dispatch holds nothing.
func (cb *CommandBuffer) useAll(bufs ...*Buffer) error {
	start := len(cb.keep)
	for _, b := range bufs {
		if err := cb.use(b); err != nil {
			for _, k := range cb.keep[start:] {
				k.settle()
			}
			clear(cb.keep[start:])
			cb.keep = cb.keep[:start]
			return err
		}
	}
	return nil
}

// dispatch launches op after checking its buffers, which it keeps until
// completion.
func (cb *CommandBuffer) dispatch(op launch, bufs ...*Buffer) error {
	if cb.err != nil {
		return cb.err
	}
	if err := cb.dev.check(); err != nil {
		return err
	}
	if err := cb.useAll(bufs...); err != nil {
		return fmt.Errorf("%s: %w", kernelNames[op.kernel], err)
	}
	enc := cb.getOrCreateEncoder()
	if enc == nil {
		return cb.err
	}
	cb.op = op
	if err := cb.dev.backend.launch(enc.pick(cb.lane), &cb.op); err != nil {
		cb.fail(fmt.Errorf("launch %s: %w", kernelNames[op.kernel], err))
	}
	return cb.err
}

// sameLength checks that every buffer holds n elements.
func sameLength(op string, n int, bufs ...*Buffer) error {
	for _, b := range bufs {
		if b == nil {
			return fmt.Errorf("%s: %w: nil buffer", op, ErrInvalidArgument)
		}
		if b.n != n {
			return fmt.Errorf("%s: buffer of %d elements where %d are needed: %w", op, b.n, n, ErrLength)
		}
	}
	return nil
}

// Add dispatches out = a + b.
func (cb *CommandBuffer) Add(out, a, b *Buffer) error { return cb.binary(kAdd, "add", out, a, b) }

// Mul dispatches out = a * b.
func (cb *CommandBuffer) Mul(out, a, b *Buffer) error { return cb.binary(kMul, "mul", out, a, b) }

// binary dispatches a two-input elementwise kernel.
func (cb *CommandBuffer) binary(k kernelID, name string, out, a, b *Buffer) error {
	if out == nil {
		return fmt.Errorf("%s: %w: nil output", name, ErrInvalidArgument)
	}
	if err := sameLength(name, out.n, a, b); err != nil {
		return err
	}
	return cb.dispatch(launch{kernel: k, out: out.m, in: [2]mem{a.m, b.m}, n: out.n}, out, a, b)
}

// Softcap dispatches out = c * tanh(x / c).
func (cb *CommandBuffer) Softcap(out, x *Buffer, c float32) error {
	if out == nil {
		return fmt.Errorf("softcap: %w: nil output", ErrInvalidArgument)
	}
	if !(c > 0) || c != c {
		return fmt.Errorf("softcap: cap %v: %w: want a positive number", c, ErrInvalidArgument)
	}
	if err := sameLength("softcap", out.n, x); err != nil {
		return err
	}
	return cb.dispatch(launch{kernel: kSoftcap, out: out.m, in: [2]mem{x.m}, n: out.n, scalar: c}, out, x)
}

// SlowCopy dispatches out = in, written only after delay: a producer that
// is still running when work on another lane starts.
func (cb *CommandBuffer) SlowCopy(out, in *Buffer, delay time.Duration) error {
	if out == nil {
		return fmt.Errorf("slow copy: %w: nil output", ErrInvalidArgument)
	}
	if err := sameLength("slow copy", out.n, in); err != nil {
		return err
	}
	return cb.dispatch(launch{kernel: kSlowCopy, out: out.m, in: [2]mem{in.m}, n: out.n, delay: uint64(max(delay, 0))}, out, in)
}

// Uniform dispatches out = uniform random numbers in [0, 1) under key.
func (cb *CommandBuffer) Uniform(out *Buffer, key Key) error {
	if out == nil {
		return fmt.Errorf("uniform: %w: nil output", ErrInvalidArgument)
	}
	return cb.dispatch(launch{kernel: kUniform, out: out.m, n: out.n, key: key}, out)
}

// Sum dispatches out[0] = the sum of in, with the fixed reduction tree of
// reduce.cu. All passes run on one lane, in order.
func (cb *CommandBuffer) Sum(out, in *Buffer) error {
	if out == nil || in == nil {
		return fmt.Errorf("sum: %w: nil buffer", ErrInvalidArgument)
	}
	if out.n != 1 {
		return fmt.Errorf("sum: output of %d elements where 1 is needed: %w", out.n, ErrLength)
	}
	enc := cb.getOrCreateEncoder()
	if enc == nil {
		return cb.err
	}
	saved := cb.lane
	if cb.lane < 0 {
		cb.lane = enc.next()
	}
	defer func() { cb.lane = saved }()
	src, n := in, in.n
	for {
		blocks := (n + sumPerBlock - 1) / sumPerBlock
		dst := out
		if blocks > 1 {
			tmp, err := cb.dev.NewBuffer(blocks)
			if err != nil {
				cb.fail(fmt.Errorf("sum: scratch: %w", err))
				return cb.err
			}
			cb.temps = append(cb.temps, tmp)
			dst = tmp
		}
		if err := cb.dispatch(launch{kernel: kSumPartial, out: dst.m, in: [2]mem{src.m}, n: n}, dst, src); err != nil {
			return err
		}
		if blocks == 1 {
			return nil
		}
		src, n = dst, blocks
	}
}

// Copy dispatches a device-to-device copy of src into dst.
func (cb *CommandBuffer) Copy(dst, src *Buffer) error {
	if dst == nil {
		return fmt.Errorf("copy: %w: nil destination", ErrInvalidArgument)
	}
	if err := sameLength("copy", dst.n, src); err != nil {
		return err
	}
	if cb.err != nil {
		return cb.err
	}
	if err := cb.useAll(dst, src); err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	enc := cb.getOrCreateEncoder()
	if enc == nil {
		return cb.err
	}
	if err := cb.dev.backend.copyAsync(enc.pick(cb.lane), dst.m, src.m, 4*dst.n); err != nil {
		cb.fail(fmt.Errorf("copy: %w", err))
	}
	return cb.err
}

// Commit ends the active encoder, recording the completion of everything
// dispatched so far. A Commit while an earlier one is still pending waits
// for the earlier one first, since the completion events are re-recorded.
func (cb *CommandBuffer) Commit() error {
	if cb.active == nil {
		return cb.err
	}
	if err := cb.waitPending(); err != nil {
		cb.fail(err)
	}
	cb.reset()
	cb.pending = true
	return cb.err
}

// waitPending waits for the completion events of the last commit: each
// completes when the work committed on its lane before it does, and no
// later work. Synchronising the lanes instead (cuStreamSynchronize) saves
// one driver call per lane but also waits for work other command buffers
// queue on a shared lane after the commit, and under compute-sanitizer it
// waited for more still: with it, the retain guard's reader saw no stale
// element without the retain under memcheck on the H200 (all 4096 with
// the events), so the guard could not show its hazard there. The call it
// saved was not measurable in the round trip: 0.25 to 0.42 µs less in one
// H200 run, no less in another, 0.3 µs more in a third
// (docs/gpu-results.md).
func (cb *CommandBuffer) waitPending() error {
	if !cb.pending {
		return nil
	}
	cb.pending = false
	var errs []error
	for i, ev := range cb.done {
		if cb.marked&(1<<i) == 0 {
			continue
		}
		if err := cb.dev.backend.syncEvent(ev); err != nil {
			errs = append(errs, fmt.Errorf("wait for completion: %w", err))
		}
	}
	cb.marked = 0
	return errors.Join(errs...)
}

// Wait commits what is not yet committed, blocks until it completes, then
// releases the buffers the command buffer kept, frees its scratch memory
// and lets the device's encoder pool drain. It returns and clears the first
// error met since the last Wait.
func (cb *CommandBuffer) Wait() error {
	if err := cb.dev.check(); err != nil {
		// Close waited for all work and released the lanes and events.
		for _, b := range cb.keep {
			b.settle()
		}
		cb.reset()
		cb.keep, cb.temps, cb.pending, cb.err = cb.keep[:0], cb.temps[:0], false, nil
		return fmt.Errorf("wait: %w", err)
	}
	_ = cb.Commit()
	errs := []error{cb.err, cb.waitPending()}
	for _, b := range cb.keep {
		b.settle()
	}
	clear(cb.keep)
	cb.keep = cb.keep[:0]
	// errs is only handed to errors.Join, which copies what it keeps, so
	// it stays on the stack; the scratch's errors are joined one by one
	// rather than appended to it, since a slice that may grow escaped to
	// the heap at every Wait, also when there was no scratch and no
	// error. (The first lines keep their shape: the revert of 86fcbce,
	// which guards this function, reads them as its context.)
	err := errors.Join(errs...)
	for _, t := range cb.temps {
		if ferr := t.Free(); ferr != nil {
			err = errors.Join(err, ferr)
		}
	}
	clear(cb.temps)
	cb.temps = cb.temps[:0]
	cb.dev.pool.drain()
	cb.err = nil
	return err
}

// release frees the command buffer's events; it must be idle.
func (cb *CommandBuffer) release() error {
	var errs []error
	for _, ev := range cb.done {
		errs = append(errs, cb.dev.backend.destroyEvent(ev))
	}
	cb.done = nil
	return errors.Join(errs...)
}
