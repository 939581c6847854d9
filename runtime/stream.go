package runtime

import "fmt"

// Stream is a sequence of evaluations on a device, encoded on a command
// buffer of its own. Each device has one default stream, the one Eval
// uses: the same value from every goroutine, so that the streams the
// runtime makes are O(devices) however many goroutines use it. NewStream
// adds a stream, as MLX's new_stream does, for evaluations that share
// their command buffer with no other evaluation; such streams are as many
// as the program makes, until it closes them.
type Stream struct {
	dev *Device
}

// Device returns the stream's device.
func (s *Stream) Device() *Device { return s.dev }

// NewStream returns a new stream of d with a command buffer of its own,
// registered in the device's registry. It does not take the evaluation
// lock: goroutines can make streams while others evaluate, and the
// registry's lock alone orders the registration against their lookups.
func (d *Device) NewStream() (*Stream, error) {
	if d == nil {
		return nil, fmt.Errorf("new stream: %w: nil device", ErrInvalidArgument)
	}
	cb, err := d.NewCommandBuffer()
	if err != nil {
		return nil, fmt.Errorf("new stream: %w", err)
	}
	s := &Stream{dev: d}
	d.encoders.register(s, cb)
	return s, nil
}

// Eval is Eval with s in place of its device's default stream: the part of
// the graph on s's device is encoded on s's command buffer, the parts on
// other devices on their default streams. On a closed stream it returns
// ErrStreamClosed.
func (s *Stream) Eval(arrays ...*Array) error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return s.evalLocked(arrays)
}

// evalLocked implements Eval: its callers hold evalMu.
//
//guardlint:requires evalMu
func (s *Stream) evalLocked(arrays []*Array) error {
	if s == nil || s.dev == nil {
		return fmt.Errorf("eval: %w: a stream not made by NewStream or DefaultStream", ErrInvalidArgument)
	}
	return evalLocked(s, arrays)
}

// Close gives the stream up: it forgets the stream's command buffer and
// releases its events. Evaluating on a closed stream returns
// ErrStreamClosed, and closing it again does nothing. The default stream
// lives as long as its device and cannot be closed.
func (s *Stream) Close() error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return s.closeLocked()
}

// closeLocked implements Close. It releases the command buffer that an
// evaluation on the stream encodes on: its callers hold evalMu.
//
//guardlint:requires evalMu
func (s *Stream) closeLocked() error {
	switch {
	case s == nil || s.dev == nil:
		return fmt.Errorf("close stream: %w: a stream not made by NewStream", ErrInvalidArgument)
	case s == s.dev.stream:
		return fmt.Errorf("close stream: %w: the default stream of %s lives as long as the device", ErrInvalidArgument, s.dev)
	}
	cb := s.dev.encoders.take(s)
	if cb == nil {
		return nil // closed before, or released by the device's Close
	}
	return cb.release()
}
