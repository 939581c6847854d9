package runtime

// Spare result buffers. An evaluation allocates one Buffer per result, and
// the buffer's leak net (runtime.AddCleanup) costs more than the rest of
// the allocation; a loop that evaluates, reads and frees pays both every
// time. Free therefore keeps an evaluation's result buffer, once no
// command buffer uses it, as a spare of its device, with its memory and its
// leak net as they are, and the next result of the same length takes it
// back instead of allocating.
//
// Only result buffers are kept: the caller never holds them, only their
// array does, and the array drops it when freed. A reader that found the
// buffer through the array before the Free (Array.Data) remembers the
// buffer's generation, which taking a spare back increments: it sees the
// buffer freed, not the next result.
//
// A spare stays reachable from its device, so its leak net cannot fire
// while it waits; the net then covers the memory for the next owner. A
// spare the device drops instead (dropSpares: the cache is flushed, the
// device closes) has its net stopped first, since its memory goes back to
// the cache or the backend and a later firing would free memory that
// another buffer owns by then.

// maxSpares bounds the spares of a device; beyond it, Free releases the
// memory to the cache as for any buffer.
const maxSpares = 16

// keepSpare keeps b, a freed result buffer that no command buffer uses, as
// a spare, unless the device is closed or has maxSpares already. b.mu is
// held; d.mu is taken after it, as deallocate takes it.
func (d *Device) keepSpare(b *Buffer) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed.Load() || len(d.spares) >= maxSpares {
		return false
	}
	d.spares = append(d.spares, b)
	d.spareBytes += d.live[b.m]
	return true
}

// outputBuffer returns a buffer of n elements for an evaluation's result:
// a spare of that length when there is one, else a new buffer whose leak
// net the evaluation arms later (newBuffer).
func (d *Device) outputBuffer(n int) (*Buffer, error) {
	if b := d.takeSpare(n); b != nil {
		return b, nil
	}
	b, err := d.newBuffer(n)
	if err != nil {
		return nil, err
	}
	b.output = true
	return b, nil
}

// takeSpare removes a spare of n elements from the list, the most recently
// kept first, and makes it a live buffer of a new generation; nil when
// there is none.
func (d *Device) takeSpare(n int) *Buffer {
	d.mu.Lock()
	var b *Buffer
	for i := len(d.spares) - 1; i >= 0; i-- {
		if d.spares[i].n == n {
			b = d.spares[i]
			last := len(d.spares) - 1
			d.spares[i] = d.spares[last]
			d.spares[last] = nil
			d.spares = d.spares[:last]
			d.spareBytes -= d.live[b.m]
			break
		}
	}
	d.mu.Unlock()
	if b == nil {
		return nil
	}
	// b.mu after d.mu is released: Free takes them in the other order.
	b.mu.Lock()
	b.gen++
	b.freed.Store(false)
	b.mu.Unlock()
	return b
}

// dropSpares empties the spare list, stops each spare's leak net and
// returns their memory, which is still in d.live: the caller deallocates
// or frees it.
func (d *Device) dropSpares() []mem {
	d.mu.Lock()
	list := d.spares
	d.spares, d.spareBytes = nil, 0
	d.mu.Unlock()
	var ms []mem
	for _, b := range list {
		b.mu.Lock()
		b.cleanup.Stop()
		b.netArmed = false
		b.mu.Unlock()
		ms = append(ms, b.m)
	}
	return ms
}
