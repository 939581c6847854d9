package cbuser

import "cb"

func steal(b *cb.CommandBuffer) {
	b.Lane++ // want `invariant exported-owned: field \(cb.CommandBuffer\).Lane is written here by cbuser.steal; only \(\*cb.CommandBuffer\).setLane may write it`
}

func read(b *cb.CommandBuffer) int { return b.Lane }
