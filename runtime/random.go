package runtime

import "sync"

// Key selects a stream of counter-based random numbers: element i of a
// Uniform array is a pure function of its key and i.
type Key [2]uint32

// rng is the process-global random state: a seed and the number of keys
// drawn from it. It is safe to use from any goroutine.
var rng struct {
	sync.Mutex
	seed    uint64
	counter uint64
}

// Seed resets the global random state; the keys drawn after it, and so the
// numbers of the Uniform arrays built after it, depend only on seed and
// their order.
func Seed(seed uint64) {
	rng.Lock()
	defer rng.Unlock()
	rng.seed, rng.counter = seed, 0
}

// NextKey draws the next key from the global random state.
func NextKey() Key {
	rng.Lock()
	c, s := rng.counter, rng.seed
	rng.counter++
	rng.Unlock()
	return KeyFrom(s, c)
}

// KeyFrom derives the key number c of seed s.
func KeyFrom(s, c uint64) Key {
	lo := mix32(uint32(s) ^ mix32(uint32(c)+0x68e31da4))
	hi := mix32(uint32(s>>32) ^ mix32(uint32(c>>32)+0xb5297a4d) ^ lo)
	return Key{lo, hi}
}

// UniformAt returns element i of the uniform numbers under key: the same
// float32 the kernels produce on every backend.
func UniformAt(key Key, i uint32) float32 { return uniformAt(i, key) }
