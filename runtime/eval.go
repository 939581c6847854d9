package runtime

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// evalMu serialises evaluation and synchronisation process-wide, like the
// eval mutex of MLX's eval_impl and synchronize. Go mutexes are not
// recursive: helpers that expect it held are named ...Locked and never take
// it.
var evalMu sync.Mutex

// Eval computes the given arrays and every unevaluated array they depend
// on, then waits for the results. Each device's part of the graph is
// encoded on the device's default stream, spread over the lanes, with a
// barrier between each level of dependent nodes. Every device's part is
// encoded and committed before Eval waits for any, so the devices compute
// at once. When any part fails, Eval returns the errors of every device
// and frees every output it allocated, on every device: the arrays stay
// unevaluated.
func Eval(arrays ...*Array) error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return evalLocked(nil, arrays)
}

// Synchronize waits for all work on the given devices (every open device
// when none is given) and frees the buffers the leak net has queued.
func Synchronize(devices ...*Device) error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return synchronizeLocked(devices)
}

// synchronizeLocked implements Synchronize; its callers hold evalMu.
//
//guardlint:requires evalMu
func synchronizeLocked(devices []*Device) error {
	if len(devices) == 0 {
		openDevices.Lock()
		devices = slices.Clone(openDevices.list)
		openDevices.Unlock()
	}
	var errs []error
	for _, d := range devices {
		if d == nil {
			errs = append(errs, fmt.Errorf("synchronize: %w: nil device", ErrInvalidArgument))
			continue
		}
		if err := d.check(); err != nil {
			errs = append(errs, fmt.Errorf("synchronize: %w", err))
			continue
		}
		if err := d.pool.syncAll(); err != nil {
			errs = append(errs, fmt.Errorf("synchronize %s: %w", d, err))
		}
		errs = append(errs, d.drainLeaksLocked())
	}
	return errors.Join(errs...)
}

// evalState is the scratch of evalLocked, reused across evaluations to
// keep allocations off the hot path; evalMu guards it.
type evalState struct {
	epoch  uint64 // numbers evaluations, to mark visited arrays without a set
	groups []deviceNodes
}

// evalScratch is the one evalState; evalMu guards it.
var evalScratch evalState

// deviceNodes are the unevaluated nodes of one device, inputs first, and
// the state of their evaluation.
type deviceNodes struct {
	dev      *Device
	nodes    []*Array
	maxLevel int
	cb       *CommandBuffer // the command buffer the nodes were encoded on, nil before
	err      error          // the first error of encoding or waiting
}

// evalLocked implements Eval and Stream.Eval: the part of the graph on
// on's device is encoded on on, every other part (every part, when on is
// nil) on its device's default stream. Its callers hold evalMu.
//
//guardlint:requires evalMu
func evalLocked(on *Stream, arrays []*Array) error {
	s := &evalScratch
	s.epoch++
	for i := range s.groups {
		clear(s.groups[i].nodes)
		s.groups[i] = deviceNodes{nodes: s.groups[i].nodes[:0]}
	}
	s.groups = s.groups[:0]
	for _, a := range arrays {
		if err := s.visit(a); err != nil {
			return err
		}
	}
	// Encode and commit every device's part before waiting for any, so
	// that a second device computes while the first does. The parts are
	// independent: an operation's inputs live on its own device, and To
	// moves data between devices eagerly, outside any graph.
	for i := range s.groups {
		g := &s.groups[i]
		stream := g.dev.stream
		if on != nil && on.dev == g.dev {
			stream = on
		}
		g.encodeLocked(stream)
	}
	var errs []error
	for i := range s.groups {
		if err := s.groups[i].waitLocked(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		for i := range s.groups {
			s.groups[i].freeOutputsLocked()
		}
		s.forget()
		return fmt.Errorf("eval: %w", errors.Join(errs...))
	}
	for i := range s.groups {
		s.groups[i].publishLocked()
	}
	s.forget()
	return nil
}

// forget drops the scratch's references to the evaluated arrays, so that
// arrays the caller drops unfreed reach the leak net without waiting for
// the next evaluation.
func (s *evalState) forget() {
	for i := range s.groups {
		clear(s.groups[i].nodes)
		s.groups[i].cb = nil
	}
}

// visit adds a and its unevaluated inputs, inputs first, to their device's
// group, and computes their levels.
func (s *evalState) visit(a *Array) error {
	if a == nil {
		return fmt.Errorf("eval: %w: nil array", ErrInvalidArgument)
	}
	if a.err != nil {
		return fmt.Errorf("eval: %w", a.err)
	}
	if a.mark == s.epoch {
		return nil
	}
	a.mark = s.epoch
	// done and buf are written only under evalMu (publishLocked,
	// freeLocked), which the caller holds, and under a.mu for the readers
	// outside it (Data, To): read here, under evalMu, they need no a.mu.
	if a.done {
		if a.buf == nil {
			return fmt.Errorf("eval %s array %v: %w", opNames[a.op], a.shape, ErrFreed)
		}
		return nil
	}
	a.level = 0
	for _, in := range a.inputs {
		if err := s.visit(in); err != nil {
			return err
		}
		if !in.done {
			a.level = max(a.level, in.level+1)
		}
	}
	for i := range s.groups {
		if g := &s.groups[i]; g.dev == a.dev {
			g.nodes = append(g.nodes, a)
			g.maxLevel = max(g.maxLevel, a.level)
			return nil
		}
	}
	// A new group takes the next slot's node slice from an earlier
	// evaluation (evalLocked emptied it), so that an evaluation repeated
	// in a loop appends into the same backing arrays and allocates none.
	var nodes []*Array
	if len(s.groups) < cap(s.groups) {
		nodes = s.groups[:len(s.groups)+1][len(s.groups)].nodes[:0]
	}
	s.groups = append(s.groups, deviceNodes{dev: a.dev, maxLevel: a.level, nodes: append(nodes, a)})
	return nil
}

// commandBufferLocked returns the command buffer registered for s, a
// stream of d, creating the default stream's on first use; a stream from
// NewStream has one until it is closed. evalMu is held.
func (d *Device) commandBufferLocked(s *Stream) (*CommandBuffer, error) {
	if cb := d.encoders.lookup(s); cb != nil {
		return cb, nil
	}
	if s != d.stream {
		return nil, ErrStreamClosed
	}
	cb, err := d.NewCommandBuffer()
	if err != nil {
		return nil, err
	}
	return d.encoders.register(d.stream, cb), nil
}

// encodeLocked encodes the nodes level by level on stream, a stream of
// their device, and commits them, without waiting; it records the first
// error in g.err. evalMu is held.
func (g *deviceNodes) encodeLocked(stream *Stream) {
	d := g.dev
	if d.closed.Load() {
		g.err = ErrDeviceClosed // waitLocked names the device
		return
	}
	if err := d.drainLeaksLocked(); err != nil {
		g.err = fmt.Errorf("free leaked buffers: %w", err)
		return
	}
	cb, err := d.commandBufferLocked(stream)
	if err != nil {
		g.err = err
		return
	}
	g.cb = cb
	if d.cfg.fusion && g.fusible() && d.backend.canFuse() {
		if err := g.encodeFusedLocked(cb); err != nil {
			g.err = err
			return
		}
		_ = cb.Commit() // an error stays in cb.Err, which Wait returns
		return
	}
	for level := 0; level <= g.maxLevel; level++ {
		if level > 0 {
			if err := cb.Barrier(); err != nil {
				g.err = err
				return
			}
		}
		for _, a := range g.nodes {
			if a.level != level {
				continue
			}
			out, err := d.outputBuffer(a.size)
			if err != nil {
				g.err = err
				return
			}
			a.out = out
			if err := encodeNode(cb, a, out); err != nil {
				g.err = err
				return
			}
		}
	}
	_ = cb.Commit() // an error stays in cb.Err, which Wait returns
}

// waitLocked registers the outputs' leak nets, then waits for what
// encodeLocked committed, even after an encoding error (dispatches already
// made must finish before their outputs are freed), and returns the
// group's error with the device named. evalMu is held.
func (g *deviceNodes) waitLocked() error {
	// The outputs' leak nets are registered while the device computes,
	// off the path from Eval's start to the launch.
	g.armOutputsLocked()
	if g.cb != nil {
		g.err = errors.Join(g.err, g.cb.Wait())
	}
	if g.err != nil {
		return fmt.Errorf("%s: %w", g.dev, g.err)
	}
	return nil
}

// armOutputsLocked registers the leak nets of the outputs allocated for
// the nodes. evalMu is held.
func (g *deviceNodes) armOutputsLocked() {
	for _, a := range g.nodes {
		if a.out != nil {
			a.out.armLeakNet()
		}
	}
}

// freeOutputsLocked frees the outputs allocated for the nodes; evalMu is
// held and the device's work has completed.
func (g *deviceNodes) freeOutputsLocked() {
	for _, a := range g.nodes {
		if a.out != nil {
			_ = a.out.Free()
			a.out = nil
		}
	}
}

// publishLocked makes the computed outputs the nodes' results; evalMu is
// held and the device's work has completed.
func (g *deviceNodes) publishLocked() {
	for _, a := range g.nodes {
		a.mu.Lock()
		a.buf, a.done = a.out, true
		a.mu.Unlock()
		a.out = nil
		a.inputs, a.inbuf = nil, [2]*Array{} // let the graph above an evaluated array be collected
	}
}

// inputBuffer returns the buffer of an input evaluated earlier or in the
// evaluation in progress. Its callers hold evalMu, under which in.buf is
// written, so it reads in.buf without in.mu (as visit does).
func inputBuffer(in *Array) (*Buffer, error) {
	if in.out != nil {
		return in.out, nil
	}
	if in.buf == nil {
		return nil, fmt.Errorf("%s input: %w", opNames[in.op], ErrFreed)
	}
	return in.buf, nil
}

// encodeNode dispatches the kernel that computes a into out.
func encodeNode(cb *CommandBuffer, a *Array, out *Buffer) error {
	var in [2]*Buffer
	for i, x := range a.inputs {
		b, err := inputBuffer(x)
		if err != nil {
			return fmt.Errorf("%s: %w", opNames[a.op], err)
		}
		in[i] = b
	}
	switch a.op {
	case opAdd:
		return cb.Add(out, in[0], in[1])
	case opMul:
		return cb.Mul(out, in[0], in[1])
	case opSoftcap:
		return cb.Softcap(out, in[0], a.scalar)
	case opSum:
		return cb.Sum(out, in[0])
	case opUniform:
		return cb.Uniform(out, a.key)
	}
	return fmt.Errorf("%w: cannot encode %s", ErrInvalidArgument, opNames[a.op])
}
