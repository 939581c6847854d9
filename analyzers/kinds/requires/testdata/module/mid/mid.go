package mid

import "example.com/req/gpu"

func step(e *gpu.Encoder) { gpu.Encode(e) }

// Locked takes the lock through the declared helpers.
func Locked(e *gpu.Encoder) {
	gpu.Lock()
	defer gpu.Unlock()
	step(e)
}

// Step is a new entry point without the lock.
func Step(e *gpu.Encoder) { step(e) }
