package runtime

import (
	"sync/atomic"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

// eventCounter counts the backend events created and not yet destroyed.
type eventCounter struct {
	backend
	live atomic.Int64
}

// newEvent implements backend.
func (b *eventCounter) newEvent() (event, error) {
	e, err := b.backend.newEvent()
	if err == nil {
		b.live.Add(1)
	}
	return e, err
}

// destroyEvent implements backend.
func (b *eventCounter) destroyEvent(e event) error {
	b.live.Add(-1)
	return b.backend.destroyEvent(e)
}

// countEvents puts an eventCounter under d, before d has created any
// event.
func countEvents(d *Device) *eventCounter {
	c := &eventCounter{backend: d.backend}
	d.backend = c
	return c
}

// addTwice builds x+x on d and returns it with its exact result.
func addTwice(t *testing.T, d *Device, seed int) (*Array, []float32) {
	t.Helper()
	x := rttest.Ramp(1000, func(i int) float32 { return float32(seed*1000 + i) })
	return Add(rttest.Array(t, FromSlice, d, x), rttest.Array(t, FromSlice, d, x)),
		rttest.Ramp(1000, func(i int) float32 { return 2 * x[i] })
}

func TestNewStreamEvaluatesOnACommandBufferOfItsOwn(t *testing.T) {
	d := rttest.Open(t, Open)
	events := countEvents(d)
	s, err := d.NewStream()
	require.NoError(t, err)
	require.Same(t, d, s.Device())
	require.NotSame(t, d.DefaultStream(), s)
	cb := d.encoders.lookup(s)
	require.NotNil(t, cb, "NewStream registers the stream's command buffer")
	require.EqualValues(t, d.cfg.lanes, events.live.Load(), "a command buffer's completion events, one per lane")
	require.Equal(t, 2, d.Stats().Streams, "the default stream and the new one")

	r, want := addTwice(t, d, 1)
	require.NoError(t, s.Eval(r))
	got, err := r.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want))
	require.Same(t, cb, d.encoders.lookup(s), "the evaluation used the stream's command buffer")
	require.Nil(t, d.encoders.lookup(d.DefaultStream()), "and not the default stream's")

	r2, want2 := addTwice(t, d, 2)
	require.NoError(t, Eval(r2))
	require.NotSame(t, cb, d.encoders.lookup(d.DefaultStream()), "the default stream has a command buffer of its own")
	got, err = r2.Data()
	require.NoError(t, err)
	require.Zero(t, rttest.Mismatches(got, want2))
	require.Equal(t, 2, d.Stats().Streams)
	require.Zero(t, d.Stats().Outstanding)
}

func TestStreamCloseReleasesItsCommandBuffer(t *testing.T) {
	d := rttest.Open(t, Open)
	events := countEvents(d)
	s, err := d.NewStream()
	require.NoError(t, err)
	r, _ := addTwice(t, d, 1)
	require.NoError(t, s.Eval(r))
	lanes := events.live.Load() // the pool's lane sets hold events too

	require.NoError(t, s.Close())
	require.Nil(t, d.encoders.lookup(s))
	require.Equal(t, lanes-int64(d.cfg.lanes), events.live.Load(), "the stream's completion events are destroyed")
	require.Equal(t, 1, d.Stats().Streams)
	require.NoError(t, s.Close(), "closing twice does nothing")
	require.Equal(t, lanes-int64(d.cfg.lanes), events.live.Load(), "and destroys nothing twice")

	r2, _ := addTwice(t, d, 2)
	require.ErrorIs(t, s.Eval(r2), ErrStreamClosed)
	require.NoError(t, r2.Err(), "the array stays unevaluated and usable")
	require.NoError(t, Eval(r2))

	err = d.DefaultStream().Close()
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "default stream")
}

func TestStreamEvalEncodesOtherDevicesOnTheirDefaultStreams(t *testing.T) {
	d0, d1 := openPair(t)
	s, err := d0.NewStream()
	require.NoError(t, err)
	r0, want0 := addTwice(t, d0, 1)
	r1, want1 := addTwice(t, d1, 2)
	require.NoError(t, s.Eval(r0, r1))
	for _, c := range []struct {
		r    *Array
		want []float32
	}{{r0, want0}, {r1, want1}} {
		got, err := c.r.Data()
		require.NoError(t, err)
		require.Zero(t, rttest.Mismatches(got, c.want))
	}
	require.Nil(t, d0.encoders.lookup(d0.DefaultStream()), "device 0's part ran on the stream")
	require.NotNil(t, d1.encoders.lookup(d1.DefaultStream()), "device 1's part on its default stream")
	require.Nil(t, d1.encoders.lookup(s))
}

func TestDeviceCloseReleasesEveryStream(t *testing.T) {
	d, err := Open()
	require.NoError(t, err)
	events := countEvents(d)
	streams := make([]*Stream, 3)
	for i := range streams {
		streams[i], err = d.NewStream()
		require.NoError(t, err)
		r, _ := addTwice(t, d, i)
		require.NoError(t, streams[i].Eval(r))
	}
	r, _ := addTwice(t, d, 9)
	require.NoError(t, Eval(r))
	require.Equal(t, 4, d.Stats().Streams)
	later, _ := addTwice(t, d, 10) // evaluated after the Close

	require.NoError(t, d.Close())
	require.Zero(t, d.encoders.size(), "Close forgets every stream")
	require.Zero(t, events.live.Load(), "and destroys every event: the streams', the default stream's and the lanes'")
	require.ErrorIs(t, streams[0].Eval(later), ErrDeviceClosed)
	require.NoError(t, streams[1].Close(), "a stream of a closed device closes without error")
	_, err = d.NewStream()
	require.ErrorIs(t, err, ErrDeviceClosed)
}

func TestStreamBadInput(t *testing.T) {
	d := rttest.Open(t, Open)
	r, _ := addTwice(t, d, 1)
	var nilStream *Stream
	for _, s := range []*Stream{nilStream, {}} {
		require.ErrorIs(t, s.Eval(r), ErrInvalidArgument)
		require.ErrorIs(t, s.Close(), ErrInvalidArgument)
	}
	var nilDevice *Device
	_, err := nilDevice.NewStream()
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.NoError(t, r.Err())
}
