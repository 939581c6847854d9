package runtime

import "sync"

// encoderRegistry maps each stream of one device to the command buffer
// that encodes its work (and through it the stream's active encoder); every
// Device owns one. Lookups take the read lock; registering and forgetting
// take the write lock. The lock is the registry's only protection:
// NewStream registers without the evaluation lock, while evaluations look
// streams up under it, and Stats reads the registry under neither.
type encoderRegistry struct {
	mu       sync.RWMutex
	byStream map[*Stream]*CommandBuffer
}

// lookup returns the command buffer of s, or nil.
func (r *encoderRegistry) lookup(s *Stream) *CommandBuffer {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byStream[s]
}

// register records cb for s unless s already has one, and returns the one
// that is registered.
func (r *encoderRegistry) register(s *Stream, cb *CommandBuffer) *CommandBuffer {
	r.mu.Lock()
	defer r.mu.Unlock()
	if have := r.byStream[s]; have != nil {
		return have
	}
	if r.byStream == nil {
		r.byStream = map[*Stream]*CommandBuffer{}
	}
	r.byStream[s] = cb
	return cb
}

// take forgets the command buffer of s and returns it, or nil when s has
// none.
func (r *encoderRegistry) take(s *Stream) *CommandBuffer {
	r.mu.Lock()
	defer r.mu.Unlock()
	cb := r.byStream[s]
	delete(r.byStream, s)
	return cb
}

// takeAll forgets every command buffer and returns them.
func (r *encoderRegistry) takeAll() []*CommandBuffer {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := make([]*CommandBuffer, 0, len(r.byStream))
	for s, cb := range r.byStream {
		all = append(all, cb)
		delete(r.byStream, s)
	}
	return all
}

// size returns the number of registered streams: the device's streams that
// hold a command buffer.
func (r *encoderRegistry) size() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byStream)
}
