package runtime

// The helpers that these tests share with gpu_test (opening a device,
// uploads, ramps, counting wrong elements) are in internal/rttest.

import "math"

// refSum applies the reduction tree of reduce.cu on the host.
func refSum(x []float32) float32 {
	words := make([]uint32, len(x))
	for i, v := range x {
		words[i] = math.Float32bits(v)
	}
	n := len(x)
	for {
		blocks := (n + sumPerBlock - 1) / sumPerBlock
		next := make([]uint32, blocks)
		for b := range blocks {
			next[b] = math.Float32bits(sumBlock(words, n, b))
		}
		if blocks == 1 {
			return math.Float32frombits(next[0])
		}
		words, n = next, blocks
	}
}
