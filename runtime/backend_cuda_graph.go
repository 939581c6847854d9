//go:build linux

package runtime

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/guardlint/guardlint/runtime/internal/cuda"
)

// Graph replay of kernel launches. A kernel launch costs the host more
// than the replay of an instantiated CUDA graph of the same launch: on the
// H200, one fused (a+b)*c kernel launched and waited for took 8.4 µs, its
// one-node graph launched and waited for 6.3 µs (docs/gpu-results.md, "The
// floor under the round trip"). Work repeated in a loop launches the same
// kernels on the same few buffers (Free keeps results as spares), so the
// CUDA backend keeps one instantiated one-node graph per kernel and lane,
// changes its node's grid and buffers in place when they differ from its
// last launch's (cuGraphExecKernelNodeSetParams, host work that a plain
// launch does anyway), and replays it on the lane with cuGraphLaunch. A
// replay is ordered on its lane like a launch, after the lane's earlier
// work and its event waits, so barriers and completion events order
// replays exactly as they order launches.
//
// Per lane, because the driver orders the launches of one graph after each
// other whatever their streams: one graph shared by two lanes would order
// work that the lanes' own events leave unordered, and could hide the
// missing barrier or retain that the runtime's guards must see.

// laneGraphKey names a graph: the fused kernel and the lane it replays on.
type laneGraphKey struct {
	f cuda.Function
	l lane
}

// laneGraphs is the CUDA backend's graph cache. Lookups, one per launch,
// read an immutable snapshot of the map without a lock; a new graph or a
// lane's removal replaces the snapshot under mu.
type laneGraphs struct {
	mu      sync.Mutex
	byKey   atomic.Pointer[map[laneGraphKey]*cuda.KernelGraph]
	replays atomic.Uint64 // graph launches, for tests
}

// graph returns the graph of f on l, instantiating it with these
// parameters on first use.
func (b *cudaBackend) graph(f cuda.Function, l lane, grid uint32, args []uint64) (*cuda.KernelGraph, error) {
	c := &b.graphs
	k := laneGraphKey{f, l}
	if m := c.byKey.Load(); m != nil {
		if g, ok := (*m)[k]; ok {
			return g, nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.byKey.Load()
	if old != nil {
		if g, ok := (*old)[k]; ok {
			return g, nil // made by another goroutine meanwhile
		}
	}
	var g *cuda.KernelGraph
	err := b.do(func() (err error) {
		g, err = b.drv.NewKernelGraph(f, grid, elementwiseBlock, 0, args)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("instantiate a kernel's graph: %w", err)
	}
	next := map[laneGraphKey]*cuda.KernelGraph{k: g}
	if old != nil {
		for k, g := range *old {
			next[k] = g
		}
	}
	c.byKey.Store(&next)
	return g, nil
}

// launchGraph replays f's graph on l with these parameters.
func (b *cudaBackend) launchGraph(f cuda.Function, l lane, grid uint32, args []uint64) error {
	g, err := b.graph(f, l, grid, args)
	if err != nil {
		return err
	}
	b.graphs.replays.Add(1)
	return b.do(func() error {
		return g.Launch(f, grid, elementwiseBlock, 0, cuda.Stream(l), args)
	})
}

// dropGraphs destroys the graphs of lane l, or every graph when all is
// set; launches already queued complete. A destroyed lane's handle may be
// reused by the driver for a new stream, which must not find the old
// lane's graphs.
func (b *cudaBackend) dropGraphs(l lane, all bool) error {
	c := &b.graphs
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.byKey.Load()
	if old == nil {
		return nil
	}
	next := map[laneGraphKey]*cuda.KernelGraph{}
	var errs []error
	for k, g := range *old {
		if all || k.l == l {
			errs = append(errs, b.do(g.Destroy))
			continue
		}
		next[k] = g
	}
	c.byKey.Store(&next)
	return errors.Join(errs...)
}
