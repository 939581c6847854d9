package runtime

import (
	"math"
	"sync/atomic"
)

// The CPU versions of runtime/kernels/*.cu. They perform the same float32
// operations in the same order where order matters (the sum tree), and the
// same integer operations for the random generator, so results match the
// GPU bit for bit except softcap, whose tanh differs from CUDA's tanhf by
// at most a few ulp (see SoftcapTolerance).

// SoftcapTolerance is the largest relative difference allowed between the
// CPU and CUDA softcap (CUDA's tanhf is accurate to 2 ulp; the CPU rounds a
// float64 tanh).
const SoftcapTolerance = 1e-6

// Sum reduction geometry, shared with reduce.cu.
const (
	sumThreads   = 256
	sumPerThread = 8
	sumPerBlock  = sumThreads * sumPerThread
)

// load reads element i of device memory.
func load(d []uint32, i int) float32 { return math.Float32frombits(atomic.LoadUint32(&d[i])) }

// store writes element i of device memory.
func store(d []uint32, i int, v float32) { atomic.StoreUint32(&d[i], math.Float32bits(v)) }

// runCPUKernel executes one launch on the calling lane goroutine.
func runCPUKernel(op *launch, out []uint32, in [2][]uint32) {
	n := op.n
	switch op.kernel {
	case kAdd:
		for i := 0; i < n; i++ {
			store(out, i, load(in[0], i)+load(in[1], i))
		}
	case kMul:
		for i := 0; i < n; i++ {
			store(out, i, load(in[0], i)*load(in[1], i))
		}
	case kSoftcap:
		for i := 0; i < n; i++ {
			store(out, i, softcap(load(in[0], i), op.scalar))
		}
	case kSlowCopy:
		sleepNanos(op.delay)
		for i := 0; i < n; i++ {
			store(out, i, load(in[0], i))
		}
	case kSumPartial:
		blocks := (n + sumPerBlock - 1) / sumPerBlock
		for b := 0; b < blocks; b++ {
			store(out, b, sumBlock(in[0], n, b))
		}
	case kUniform:
		for i := 0; i < n; i++ {
			store(out, i, uniformAt(uint32(i), op.key))
		}
	}
}

// softcap is cap * tanh(x / cap) in float32.
func softcap(x, c float32) float32 {
	return c * float32(math.Tanh(float64(x/c)))
}

// sumBlock is one block of gl_sum_partial: per-thread sequential sums,
// then the halving tree.
func sumBlock(in []uint32, n, b int) float32 {
	var sh [sumThreads]float32
	base := b * sumPerBlock
	for t := 0; t < sumThreads; t++ {
		var acc float32
		for k := 0; k < sumPerThread; k++ {
			if i := base + k*sumThreads + t; i < n {
				acc += load(in, i)
			}
		}
		sh[t] = acc
	}
	for s := sumThreads / 2; s > 0; s >>= 1 {
		for t := 0; t < s; t++ {
			sh[t] += sh[t+s]
		}
	}
	return sh[0]
}

// mix32 is gl_mix from random.cu.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// uniformAt is element i of gl_uniform under key k.
func uniformAt(i uint32, k [2]uint32) float32 {
	h := mix32(i*0x9e3779b9 ^ k[0])
	h = mix32(h ^ k[1])
	return float32(h>>8) * (1.0 / 16777216.0)
}
